import { connect, NatsConnection, StringCodec } from 'nats';
import { e2eEnv } from '../../support';

const sc = StringCodec();

/** A connection to the run's NATS for observing events and sending internal commands. */
export async function natsProbe(): Promise<NatsConnection> {
  return connect({ servers: e2eEnv().natsUrl, name: 'e2e-agents-probe' });
}

/** Sends an internal command as another service would and returns its reply ({ ok, data } or { ok, error }). */
export async function command<T = unknown>(
  nc: NatsConnection,
  subject: string,
  partnerId: string | null,
  data: unknown,
): Promise<{ ok: true; data: T } | { ok: false; error: { code: string; status: number; message: string } }> {
  const msg = await nc.request(
    `${e2eEnv().natsPrefix}.${subject}`,
    sc.encode(JSON.stringify({ partnerId, requestId: `e2e-${Date.now()}`, data })),
    { timeout: 5000 },
  );
  return JSON.parse(sc.decode(msg.data));
}

/**
 * Waits for a domain event on the run's JetStream stream whose payload matches, reading the subject from
 * the start of the stream, so an event published before the call is found too.
 */
export async function waitForEvent<T>(
  nc: NatsConnection,
  subject: string,
  match: (event: { id: string; subject: string; partnerId: string | null; data: T }) => boolean,
  timeoutMs = 15_000,
): Promise<{ id: string; subject: string; partnerId: string | null; data: T }> {
  const prefix = e2eEnv().natsPrefix;
  const js = nc.jetstream();
  const consumer = await js.consumers.get(`${prefix}_EVENTS`, { filterSubjects: `${prefix}.${subject}` });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const msg = await consumer.next({ expires: Math.max(1000, Math.min(5000, deadline - Date.now())) });
      if (!msg) continue;
      const event = msg.json<{ id: string; subject: string; partnerId: string | null; data: T }>();
      if (match(event)) return event;
    }
  } finally {
    await consumer.delete().catch(() => undefined);
  }
  throw new Error(`no ${subject} event matched within ${timeoutMs} ms`);
}
