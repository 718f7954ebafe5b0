import { randomBytes, randomUUID } from 'node:crypto';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { api, createPartner, e2eEnv } from '../../support';
import { WebhookReceiver } from './webhook-receiver';

/** Catalog voice seeded by the agents service (standard tier). */
const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function label(prefix = 'hook'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** A partner of its own: id and API key. */
export async function newPartner(): Promise<{ id: string; key: string }> {
  const { partner, apiKey } = await createPartner({ balance_inr: 500 });
  return { id: partner.id, key: apiKey };
}

export async function createAgent(key: string): Promise<{ id: string; agent_name: string }> {
  const res = await api('/agent', {
    method: 'POST',
    key,
    body: {
      agent_name: `Hooks ${randomBytes(4).toString('hex')}`,
      prompt: 'You are a polite assistant.',
      voice_id: VOICE_ID,
      agent_type: 'outbound',
    },
  });
  if (res.status !== 200) throw new Error(`POST /agent answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Creates an endpoint (account-wide, or on an agent through /agent/{id}/webhooks); fails loudly otherwise. */
export async function createEndpoint(
  key: string,
  body: Record<string, unknown>,
  agentId?: string,
): Promise<Json> {
  const res = await api(agentId ? `/agent/${agentId}/webhooks` : '/config/webhooks', {
    key,
    body: { label: label(), ...body },
  });
  if (res.status !== 200)
    throw new Error(`creating an endpoint answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * Publishes a domain event onto the run's event stream as a service's outbox relay would, so fan-out rules
 * can be driven with exact agents and types (sandbox calls drive the real producers elsewhere).
 */
export class EventPublisher {
  private readonly codec = JSONCodec();

  private constructor(private readonly nc: NatsConnection) {}

  static async open(): Promise<EventPublisher> {
    return new EventPublisher(await connect({ servers: e2eEnv().natsUrl, name: 'e2e-webhooks-events' }));
  }

  async publish(subject: string, partnerId: string, data: Record<string, unknown>): Promise<string> {
    const id = randomUUID();
    const event = { id, subject, partnerId, occurredAt: new Date().toISOString(), data };
    await this.nc
      .jetstream()
      .publish(`${e2eEnv().natsPrefix}.${subject}`, this.codec.encode(event), { msgID: id });
    return id;
  }

  close(): Promise<void> {
    return this.nc.close();
  }
}

/** A call.status.updated data object as the calls service sends it, for an agent (or none). */
export function statusData(
  agentId: string | null,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    call_id: randomUUID(),
    session_id: randomUUID(),
    agent_id: agentId,
    agent_name: null,
    client_reference_id: null,
    direction: 'outbound',
    from_number: '+15550000001',
    to_number: '+919876500042',
    status: 'ringing',
    disposition: null,
    answered_by: null,
    hangup_cause: null,
    hangup_source: null,
    previous_status: 'pending',
    terminal: false,
    concurrency_released: false,
    account_concurrency: null,
    provider: 'sandbox',
    provider_status: 'ringing',
    provider_event: 'status',
    occurred_at: new Date().toISOString(),
    ...overrides,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DeliveryBench {
  receiver: WebhookReceiver;
  events: EventPublisher;
}

/**
 * A partner's receiver and the run's event publisher for a delivery suite: opened before its tests, closed
 * after them. Call it inside `describe`; its fields are set once the suite's first `beforeAll` has run.
 */
export function useDeliveryBench(): DeliveryBench {
  const bench = {} as DeliveryBench;
  beforeAll(async () => {
    bench.receiver = await WebhookReceiver.start();
    bench.events = await EventPublisher.open();
  });
  afterAll(async () => {
    await bench.events?.close();
    await bench.receiver?.close();
  });
  return bench;
}
