import { randomBytes } from 'node:crypto';
import { connect, NatsConnection, StringCodec, Subscription } from 'nats';
import { api, ApiOptions, ApiResponse, createPartner, e2eEnv } from '../../support';

/** Catalog voice seeded by the agents service (standard tier). */
export const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';
export const CMP_ID = /^cmp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Specs read response and event bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = Record<string, any>;

let serial = 0;

/** A distinct callee number; its last two digits pick the sandbox outcome (01 no_answer, 02 busy, 03 failed). */
export function callee(suffix = '77'): string {
  serial = (serial + 1) % 100000;
  const run = parseInt(randomBytes(2).toString('hex'), 16) % 100;
  return `+9198${String(run).padStart(2, '0')}${String(serial).padStart(5, '0')}${suffix}`;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` returns a value (not undefined) or the deadline passes. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** A partner of its own for a campaign spec, with an agent. */
export class CampaignsPartner {
  private constructor(
    readonly id: string,
    readonly key: string,
    readonly agent: { id: string; agent_name: string },
  ) {}

  static async create(overrides: Record<string, unknown> = {}): Promise<CampaignsPartner> {
    const { partner, apiKey } = await createPartner({ balance_inr: 1000, ...overrides });
    const res = await api('/agent', {
      method: 'POST',
      key: apiKey,
      body: {
        agent_name: `Campaigner ${randomBytes(4).toString('hex')}`,
        prompt: 'You are Maya from Acme Health. You remind patients of their appointments.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
        intro_message: 'Hi {{customer_name}}, this is Maya from Acme Health.',
      },
    });
    if (res.status !== 200)
      throw new Error(`POST /agent answered ${res.status}: ${JSON.stringify(res.body)}`);
    return new CampaignsPartner(partner.id, apiKey, res.body.data);
  }

  call(path: string, options: Omit<ApiOptions, 'key'> = {}): Promise<ApiResponse> {
    return api(path, { ...options, key: this.key });
  }

  async createCampaign(body: Record<string, unknown> = {}): Promise<Loose> {
    const res = await this.call('/campaigns', {
      method: 'POST',
      body: { name: `Campaign ${randomBytes(3).toString('hex')}`, agent_id: this.agent.id, ...body },
    });
    if (res.status !== 200)
      throw new Error(`POST /campaigns answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  async addContacts(
    campaignId: string,
    numbers: string[],
    variables: Record<string, unknown> = {},
  ): Promise<ApiResponse> {
    return this.call(`/campaigns/${campaignId}/contacts`, {
      method: 'POST',
      body: { contacts: numbers.map((phone_number) => ({ phone_number, variables })) },
    });
  }

  start(campaignId: string, body?: Record<string, unknown>): Promise<ApiResponse> {
    return this.call(`/campaigns/${campaignId}/start`, { method: 'POST', body: body ?? {} });
  }

  async campaign(campaignId: string): Promise<Loose> {
    const res = await this.call(`/campaigns/${campaignId}`);
    if (res.status !== 200) throw new Error(`GET /campaigns/${campaignId} answered ${res.status}`);
    return res.body.data;
  }

  async waitForStatus(campaignId: string, status: string, timeoutMs = 90_000): Promise<Loose> {
    return until(
      `campaign ${campaignId} ${status}`,
      async () => {
        // A poll, as a partner's would: a 502 (the campaigns service did not answer in time, on a machine running
        // several platforms) is asked again; any other failure stops the wait.
        const res = await this.call(`/campaigns/${campaignId}`);
        if (res.status === 502) return undefined;
        if (res.status !== 200) throw new Error(`GET /campaigns/${campaignId} answered ${res.status}`);
        return res.body.data.status === status ? (res.body.data as Loose) : undefined;
      },
      timeoutMs,
    );
  }

  /** Every contact of the campaign, following the cursor. */
  async contacts(campaignId: string): Promise<Loose[]> {
    const all: Loose[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await this.call(`/campaigns/${campaignId}/contacts${query}`);
      if (res.status !== 200)
        throw new Error(`GET contacts answered ${res.status}: ${JSON.stringify(res.body)}`);
      all.push(...res.body.data.contacts);
      cursor = res.body.data.next_cursor;
    } while (cursor);
    return all;
  }
}

export interface CapturedEvent {
  id: string;
  subject: string;
  partnerId: string | null;
  occurredAt: string;
  data: Loose;
}

const sc = StringCodec();

/**
 * Listens to the run's call and campaign events and keeps, per partner, how many campaign calls are in
 * flight (from a call's first event until the one that releases concurrency) and the highest count seen.
 */
export class CampaignEventTap {
  readonly events: CapturedEvent[] = [];
  private readonly live = new Map<string, Set<string>>();
  private readonly peak = new Map<string, number>();
  private readonly released = new Set<string>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly subs: Subscription[],
  ) {}

  static async open(): Promise<CampaignEventTap> {
    const { natsUrl, natsPrefix } = e2eEnv();
    const nc = await connect({ servers: natsUrl, name: 'e2e-campaigns-tap' });
    const tap = new CampaignEventTap(nc, []);
    for (const subject of ['events.call.status_updated', 'events.campaign.status_updated']) {
      tap.subs.push(
        nc.subscribe(`${natsPrefix}.${subject}`, {
          callback: (err, msg) => {
            if (!err) tap.record(JSON.parse(sc.decode(msg.data)) as CapturedEvent);
          },
        }),
      );
    }
    await nc.flush();
    return tap;
  }

  private record(event: CapturedEvent): void {
    this.events.push(event);
    if (event.subject !== 'events.call.status_updated' || !event.partnerId) return;
    const callId = event.data.call_id as string;
    const live = this.live.get(event.partnerId) ?? new Set<string>();
    this.live.set(event.partnerId, live);
    if (event.data.concurrency_released) {
      live.delete(callId);
      this.released.add(callId);
    } else if (!this.released.has(callId)) {
      live.add(callId);
      this.peak.set(event.partnerId, Math.max(this.peak.get(event.partnerId) ?? 0, live.size));
    }
  }

  /** The most calls of the partner seen in flight at once. */
  peakInFlight(partnerId: string): number {
    return this.peak.get(partnerId) ?? 0;
  }

  /** The highest account_concurrency.active the calls service reported for the partner. */
  peakAccountActive(partnerId: string): number {
    return Math.max(
      0,
      ...this.callEvents(partnerId).map(
        (e) => (e.data.account_concurrency?.active as number | undefined) ?? 0,
      ),
    );
  }

  callEvents(partnerId: string): CapturedEvent[] {
    return this.events.filter((e) => e.partnerId === partnerId && e.subject === 'events.call.status_updated');
  }

  campaignEvents(campaignId: string): CapturedEvent[] {
    return this.events.filter(
      (e) => e.subject === 'events.campaign.status_updated' && e.data.campaign_id === campaignId,
    );
  }

  /** Calls placed for the partner (their first event), by callee number. */
  callsByNumber(partnerId: string): Map<string, string[]> {
    const byNumber = new Map<string, string[]>();
    for (const e of this.callEvents(partnerId)) {
      if (e.data.previous_status !== null) continue;
      const list = byNumber.get(e.data.to_number) ?? [];
      if (!list.includes(e.data.call_id)) list.push(e.data.call_id);
      byNumber.set(e.data.to_number, list);
    }
    return byNumber;
  }

  async close(): Promise<void> {
    for (const s of this.subs) s.unsubscribe();
    await this.nc.drain();
  }
}
