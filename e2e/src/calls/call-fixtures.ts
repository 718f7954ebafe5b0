import { randomBytes } from 'node:crypto';
import { connect, NatsConnection, StringCodec, Subscription } from 'nats';
import {
  adminApi,
  api,
  ApiOptions,
  ApiResponse,
  createPartner,
  CreatePartnerInput,
  e2eEnv,
} from '../../support';

/** Catalog voice seeded by the agents service (standard tier). */
export const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';

/**
 * The voice's idle reprompt. On a loaded machine a scripted callee's next line can come past the agent's idle
 * window (media time runs faster in e2e), and the agent asks this once: the call's idle handling, not what a
 * spec's conversation said.
 */
export const IDLE_REPROMPT = 'Are you still there?';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Numbers are counted per account (frequency caps, do-not-call), so two callees of one test must never be the
// same number: a random start per process, then a sequence.
let nextCallee = Math.floor(Math.random() * 9_000_000);

/**
 * The sandbox callee who hears the agent's intro out, then hangs up (suffix 05): an answered, billed call in
 * seconds, for specs that read what a call is and costs, not its conversation.
 */
export const HANGS_UP_AFTER_INTRO = '05';

/** An Indian mobile number, new within this process, whose last two digits pick the sandbox outcome. */
export function callee(suffix: string): string {
  nextCallee = (nextCallee + 1) % 10_000_000;
  return `+919${String(nextCallee).padStart(7, '0')}${suffix}`;
}

export interface FundedPartner {
  id: string;
  key: string;
  agentId: string;
}

/**
 * A partner with an outbound agent that lets the callee talk (a cap of an hour), on the platform at
 * `baseUrl`: for tests of long calls on a platform of their own.
 */
export async function partnerWithListeningAgent(
  baseUrl: string,
  partner: CreatePartnerInput,
  agent: Record<string, unknown> = {},
): Promise<FundedPartner> {
  const { partner: created, apiKey } = await createPartner(partner, baseUrl);
  const res = await api('/agent', {
    method: 'POST',
    key: apiKey,
    baseUrl,
    body: {
      agent_name: 'Patient listener',
      prompt: 'You are Maya. You listen patiently.',
      voice_id: VOICE_ID,
      agent_type: 'outbound',
      intro_message: 'Hi, this is Maya.',
      max_call_duration_secs: 3600,
      ...agent,
    },
  });
  if (res.status !== 200) throw new Error(`POST /agent answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: created.id, key: apiKey, agentId: res.body.data.id };
}

/** Requests allowed per key per minute under /calls with the contract's limits. */
const CALLS_PER_KEY = 10;

/**
 * A partner for call tests. /calls allows 10 requests a minute per key, so it hands out a fresh key of
 * the same partner (operator API) whenever one would run out: tests check behaviour, not the limit.
 */
export class CallsPartner {
  private key: string;
  private used = 0;

  private constructor(
    readonly id: string,
    firstKey: string,
  ) {
    this.key = firstKey;
  }

  static async create(overrides: Record<string, unknown> = {}): Promise<CallsPartner> {
    const { partner, apiKey } = await createPartner({ balance_inr: 500, ...overrides });
    return new CallsPartner(partner.id, apiKey);
  }

  /** A key for one more /calls request. */
  async callsKey(): Promise<string> {
    if (this.used >= CALLS_PER_KEY) {
      const res = await adminApi(`/partners/${this.id}/api-keys`, { method: 'POST', body: {} });
      if (res.status !== 200) throw new Error(`issuing a key answered ${res.status}`);
      this.key = res.body.data.api_key;
      this.used = 0;
    }
    this.used++;
    return this.key;
  }

  /** Any route outside /calls (its 60/minute budget is ample for a test). */
  get generalKey(): string {
    return this.key;
  }

  async calls(path: string, options: Omit<ApiOptions, 'key'> = {}): Promise<ApiResponse> {
    return api(`/calls${path}`, { ...options, key: await this.callsKey() });
  }

  async createAgent(overrides: Record<string, unknown> = {}): Promise<{ id: string; agent_name: string }> {
    const res = await api('/agent', {
      method: 'POST',
      key: this.generalKey,
      body: {
        agent_name: `Caller ${randomBytes(4).toString('hex')}`,
        prompt: 'You are Maya from Acme Health. You help patients book appointments.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
        intro_message: 'Hi {{customer_name}}, this is Maya from Acme Health.',
        ...overrides,
      },
    });
    if (res.status !== 200)
      throw new Error(`POST /agent answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  async start(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ApiResponse> {
    return this.calls('/start', { method: 'POST', body, headers });
  }
}

export interface CapturedEvent<T = Record<string, unknown>> {
  id: string;
  subject: string;
  partnerId: string | null;
  occurredAt: string;
  data: T;
}

const sc = StringCodec();

/**
 * Listens to the run's call and session events as they are published on the JetStream stream's
 * subjects (a core subscription sees every message published to them).
 */
export class EventTap {
  readonly events: CapturedEvent[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly subs: Subscription[],
  ) {}

  /** `prefix`: another platform's NATS_SUBJECT_PREFIX (a spec's own platform); the run's by default. */
  static async open(prefix?: string): Promise<EventTap> {
    const { natsUrl, natsPrefix: runPrefix } = e2eEnv();
    const natsPrefix = prefix ?? runPrefix;
    const nc = await connect({ servers: natsUrl, name: 'e2e-calls-tap' });
    const subjects = ['events.call.>', 'events.session.completed'].map((s) => `${natsPrefix}.${s}`);
    const tap: EventTap = new EventTap(nc, []);
    for (const subject of subjects) {
      const sub = nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return;
          const event = JSON.parse(sc.decode(msg.data)) as CapturedEvent;
          tap.events.push({ ...event, subject: event.subject });
          for (const wake of tap.waiters) wake();
        },
      });
      tap.subs.push(sub);
    }
    await nc.flush();
    return tap;
  }

  of(callId: string, subject?: string): CapturedEvent[] {
    return this.events.filter(
      (e) => e.data.call_id === callId && (subject === undefined || e.subject === subject),
    );
  }

  statuses(callId: string): string[] {
    return this.of(callId, 'events.call.status_updated').map((e) => e.data.status as string);
  }

  async waitFor(predicate: () => boolean, timeoutMs = 30_000, what = 'events'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 500));
        this.waiters.add(wake);
      });
    }
  }

  /** The call's session.completed event, once post-call processing finished. */
  async sessionCompleted(callId: string, timeoutMs = 30_000): Promise<CapturedEvent> {
    await this.waitFor(
      () => this.of(callId, 'events.session.completed').length > 0,
      timeoutMs,
      `session.completed of ${callId}`,
    );
    return this.of(callId, 'events.session.completed')[0];
  }

  async close(): Promise<void> {
    for (const s of this.subs) s.unsubscribe();
    await this.nc.close();
  }
}
