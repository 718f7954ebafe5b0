// The campaigns service as an integration spec starts it (IntegrationApp): its own module, configs and schema, with
// the calls and agents services it talks to faked at their commands and the call events calls publishes.
import { randomUUID } from 'node:crypto';
import {
  AgentDto,
  CallDto,
  CampaignContactDto,
  CampaignDto,
  CreateCampaignDto,
  PhoneNumberDto,
  StartCallCommand,
} from '@vap/api';
import {
  accountPricePerMinutePaise,
  AppError,
  CallStatusUpdatedData,
  DomainEvents,
  ErrorCode,
  minimumStartBalancePaise,
  PartnerContext,
  Subjects,
} from '@vap/messages';
import { IntegrationApp, IntegrationAppDefinition, IntegrationAppOptions } from '@vap/testing/integration';
import { waitFor } from '@vap/testing';
import { AppModule } from '../app.module';
import { CampaignsConfig } from '../config/campaigns.config';
import { campaignsDataSourceOptions } from '../database/data-source';

export const campaignsService: IntegrationAppDefinition<CampaignsConfig> = {
  name: 'campaigns',
  configClass: CampaignsConfig,
  module: (config) => AppModule.forRoot(config),
  dataSource: campaignsDataSourceOptions,
};

export const startCampaigns = (options?: IntegrationAppOptions): Promise<IntegrationApp<CampaignsConfig>> =>
  IntegrationApp.start(campaignsService, options);

/** How a campaign call ends, as calls reports it in the event that releases its slot. */
export type CallOutcome = 'completed' | 'busy' | 'no_answer' | 'failed';

/** A call the fake calls service placed for a campaign attempt. */
export interface PlacedCall {
  callId: string;
  partnerId: string;
  agentId: string;
  toNumber: string;
  fromNumber: string;
  attemptId: string;
  campaignId: string;
  contactId: string;
  ended: CallOutcome | null;
}

const CALL_PRICE_PER_MINUTE_PAISE = new CampaignsConfig().CALL_PRICE_PER_MINUTE_PAISE;
const DEFAULT_NUMBER = '+918000000001';

/**
 * The calls service as campaigns meets it: call.start places a call (one per idempotency key) and refuses as
 * calls does (a suspended account or a balance below one short call: FORBIDDEN; an agent or caller ID that is
 * gone: NOT_FOUND; every account slot taken: LIMIT_REACHED); the account's phone numbers; call.list by
 * client_reference_id. A call ends when the spec says, by the call.status.updated event calls publishes.
 */
export class FakeCalls {
  readonly placed: PlacedCall[] = [];
  /** The refused starts, by error code. */
  readonly refusals: { code: string; partnerId: string; toNumber: string }[] = [];
  private readonly byKey = new Map<string, PlacedCall>();
  /** Imported caller IDs with their owner. */
  private readonly numbers = new Map<string, { partnerId: string; dto: PhoneNumberDto }>();
  /** Each partner's default from-number id. */
  private readonly defaults = new Map<string, string>();
  private readonly peaks = new Map<string, number>();
  /** Calls of the account placed outside campaigns (the API's own), holding account slots. */
  private readonly otherCalls = new Map<string, number>();
  /** A refusal the spec sets for the next starts (e.g. the contact policy's), or null. */
  refuse: ((request: StartCallCommand, partnerId: string) => AppError | null) | null = null;

  constructor(
    private readonly app: IntegrationApp<CampaignsConfig>,
    private readonly agents: FakeAgents,
  ) {
    app.peers
      .answer('calls.call.start', (req, { partnerId, partner }) => {
        if (!partnerId || !partner) throw AppError.internal('call.start without a partner');
        const known = req.idempotency_key ? this.byKey.get(req.idempotency_key) : undefined;
        if (known) return { call: this.dto(known), replayed: true };
        this.check(partner, req);
        const from = req.phone_number_id
          ? this.number(partnerId, req.phone_number_id)!.number
          : DEFAULT_NUMBER;
        const call: PlacedCall = {
          callId: randomUUID(),
          partnerId,
          agentId: req.agent_id,
          toNumber: req.to_number,
          fromNumber: from,
          attemptId: req.client_reference_id ?? '',
          campaignId: req.origin?.campaign_id ?? '',
          contactId: req.origin?.contact_id ?? '',
          ended: null,
        };
        this.placed.push(call);
        if (req.idempotency_key) this.byKey.set(req.idempotency_key, call);
        this.peaks.set(partnerId, Math.max(this.peakInFlight(partnerId), this.live(partnerId).length));
        return { call: this.dto(call), replayed: false };
      })
      .answer('calls.call.list', (req, { partnerId }) => ({
        calls: this.placed
          .filter((c) => c.partnerId === partnerId && c.attemptId === req.client_reference_id)
          .map((c) => this.dto(c)),
        next_cursor: null,
      }))
      .answer('calls.phone_number.get', ({ id }, { partnerId }) => {
        const number = partnerId ? this.number(partnerId, id) : undefined;
        if (!number) throw new AppError(ErrorCode.NOT_FOUND, 'Phone number not found');
        return number;
      })
      .answer('calls.phone_number.list', (_req, { partnerId }) => ({
        phone_numbers: partnerId ? [this.defaultNumber(partnerId)] : [],
        next_cursor: null,
      }));
  }

  /** Imports a caller ID onto the partner's account; its id. */
  addNumber(partnerId: string, number: string): string {
    const id = `pn_${randomUUID()}`;
    this.numbers.set(id, { partnerId, dto: this.numberDto(id, number, false) });
    return id;
  }

  /** Deletes a caller ID: it is NOT_FOUND from then on. */
  removeNumber(id: string): void {
    this.numbers.delete(id);
  }

  /** Calls of the account placed outside its campaigns, holding its slots until set back to 0. */
  holdSlots(partnerId: string, calls: number): void {
    this.otherCalls.set(partnerId, calls);
  }

  /** The partner's campaign calls not ended yet. */
  live(partnerId?: string): PlacedCall[] {
    return this.placed.filter((c) => !c.ended && (partnerId === undefined || c.partnerId === partnerId));
  }

  /** The most campaign calls of the partner in flight at once. */
  peakInFlight(partnerId: string): number {
    return this.peaks.get(partnerId) ?? 0;
  }

  /** Calls placed for the partner, by callee number. */
  callsByNumber(partnerId: string): Map<string, string[]> {
    const byNumber = new Map<string, string[]>();
    for (const c of this.placed.filter((p) => p.partnerId === partnerId))
      byNumber.set(c.toNumber, [...(byNumber.get(c.toNumber) ?? []), c.callId]);
    return byNumber;
  }

  /** Waits until the partner has `count` campaign calls in flight, and returns them. */
  async waitForLive(partnerId: string, count: number, timeoutMs = 5000): Promise<PlacedCall[]> {
    return waitFor(
      () => {
        const live = this.live(partnerId);
        return live.length >= count ? live : undefined;
      },
      { timeoutMs, intervalMs: 10, description: `${count} live calls of ${partnerId}` },
    );
  }

  /**
   * Ends the call with `outcome` as calls reports it: a call.status.updated event that is terminal and releases
   * the call's concurrency slot, published on the run's stream.
   */
  async end(call: PlacedCall, outcome: CallOutcome): Promise<void> {
    if (call.ended) throw new Error(`call ${call.callId} ended already`);
    call.ended = outcome;
    const data: CallStatusUpdatedData = {
      call_id: call.callId,
      session_id: null,
      agent_id: call.agentId,
      agent_name: null,
      client_reference_id: call.attemptId,
      direction: 'outbound',
      from_number: call.fromNumber,
      to_number: call.toNumber,
      status: outcome,
      disposition: null,
      answered_by: null,
      hangup_cause: null,
      hangup_source: null,
      previous_status: outcome === 'completed' ? 'in_progress' : 'ringing',
      terminal: true,
      concurrency_released: true,
      account_concurrency: null,
      provider: 'sandbox',
      provider_status: null,
      provider_event: null,
      occurred_at: this.app.clock.now().toISOString(),
    };
    await this.app.publish(DomainEvents.callStatusUpdated, data, call.partnerId);
  }

  /** The refusals calls makes before it places a call. */
  private check(partner: PartnerContext, request: StartCallCommand): void {
    const { agent_id: agentId, phone_number_id: numberId, to_number: toNumber } = request;
    const refuse = (error: AppError) => {
      this.refusals.push({ code: error.code, partnerId: partner.id, toNumber });
      throw error;
    };
    const minimum = minimumStartBalancePaise(
      accountPricePerMinutePaise(partner, CALL_PRICE_PER_MINUTE_PAISE),
    );
    if (partner.status !== 'approved') refuse(new AppError(ErrorCode.FORBIDDEN, 'Account is not active'));
    if (partner.balancePaise < minimum) refuse(new AppError(ErrorCode.FORBIDDEN, 'Balance too low'));
    if (!this.agents.has(partner.id, agentId)) refuse(new AppError(ErrorCode.NOT_FOUND, 'Agent not found'));
    if (numberId && !this.number(partner.id, numberId))
      refuse(new AppError(ErrorCode.NOT_FOUND, 'Phone number not found'));
    const limit = partner.concurrencyLimit;
    if (this.live(partner.id).length + (this.otherCalls.get(partner.id) ?? 0) >= limit)
      refuse(new AppError(ErrorCode.LIMIT_REACHED, 'Account concurrency limit reached'));
    const policy = this.refuse?.(request, partner.id);
    if (policy) refuse(policy);
  }

  /** The partner's caller ID by id: its default from-number, or one it imported and has not deleted. */
  private number(partnerId: string, id: string): PhoneNumberDto | undefined {
    if (id === this.defaults.get(partnerId)) return this.defaultNumber(partnerId);
    const found = this.numbers.get(id);
    return found?.partnerId === partnerId ? found.dto : undefined;
  }

  private defaultNumber(partnerId: string): PhoneNumberDto {
    const id = this.defaults.get(partnerId) ?? `pn_${randomUUID()}`;
    this.defaults.set(partnerId, id);
    return this.numberDto(id, DEFAULT_NUMBER, true);
  }

  private dto(call: PlacedCall): CallDto {
    return {
      call_id: call.callId,
      agent_id: call.agentId,
      client_reference_id: call.attemptId,
      to_number: call.toNumber,
      from_number: call.fromNumber,
      status: call.ended ?? 'ringing',
    } as CallDto;
  }

  private numberDto(id: string, number: string, isDefault: boolean): PhoneNumberDto {
    return {
      id,
      number,
      provider: 'sandbox',
      is_default: isDefault,
      status: 'active',
    } as PhoneNumberDto;
  }
}

/** The agents service as campaigns meets it: the partners' agents by id, until deleted. */
export class FakeAgents {
  private readonly agents = new Map<string, string>();

  constructor(app: IntegrationApp<CampaignsConfig>) {
    app.peers
      .answer('agents.agent.get', ({ id }, { partnerId }) => {
        if (!partnerId || !this.has(partnerId, id))
          throw new AppError(ErrorCode.NOT_FOUND, 'Agent not found');
        return { id, agent_name: `Agent ${id}`, agent_type: 'outbound' } as AgentDto;
      })
      .answer('agents.agent.list', (_req, { partnerId }) => ({
        agents: [...this.agents]
          .filter(([, owner]) => owner === partnerId)
          .map(([id]) => ({ id }) as AgentDto),
        next_cursor: null,
      }));
  }

  add(partnerId: string): string {
    const id = randomUUID();
    this.agents.set(id, partnerId);
    return id;
  }

  delete(id: string): void {
    this.agents.delete(id);
  }

  has(partnerId: string, id: string): boolean {
    return this.agents.get(id) === partnerId;
  }
}

/** The campaigns service with fake calls and agents, and a partner's view of it through its commands. */
export class CampaignsUnderTest {
  private constructor(
    readonly app: IntegrationApp<CampaignsConfig>,
    readonly calls: FakeCalls,
    readonly agents: FakeAgents,
  ) {}

  /**
   * Starts the app with a fast dispatch poll; the manual clock decides when retries and policy waits are due
   * (CAMPAIGNS_TIME_SCALE 1: a campaign minute is a minute of the manual clock).
   */
  static async start(options: IntegrationAppOptions = {}): Promise<CampaignsUnderTest> {
    const app = await startCampaigns({
      ...options,
      env: { CAMPAIGNS_DISPATCH_INTERVAL_MS: '20', CAMPAIGNS_TIME_SCALE: '1', ...options.env },
    });
    const agents = new FakeAgents(app);
    return new CampaignsUnderTest(app, new FakeCalls(app, agents), agents);
  }

  stop(): Promise<void> {
    return this.app.stop();
  }

  /** A new approved partner (as the gateway's partner.created event tells campaigns) with an agent. */
  async partner(overrides: Partial<PartnerContext> = {}): Promise<TestPartner> {
    const context: PartnerContext = {
      id: randomUUID(),
      status: 'approved',
      voiceTier: 'standard',
      concurrencyLimit: 10,
      balancePaise: 100_000,
      pricePerMinutePaise: null,
      version: 1,
      ...overrides,
    };
    return new TestPartner(this, context, this.agents.add(context.id));
  }
}

/** A partner driving campaigns through the commands the gateway sends for its API requests. */
export class TestPartner {
  constructor(
    private readonly under: CampaignsUnderTest,
    public context: PartnerContext,
    readonly agentId: string,
  ) {}

  get id(): string {
    return this.context.id;
  }

  /** Changes the account as the gateway's partner.updated event tells campaigns (one version more). */
  async update(changes: Partial<PartnerContext>): Promise<void> {
    this.context = { ...this.context, ...changes, version: this.context.version + 1 };
    const c = this.context;
    await this.under.app.publish(
      DomainEvents.partnerUpdated,
      {
        id: c.id,
        status: c.status,
        voice_tier: c.voiceTier,
        concurrency_limit: c.concurrencyLimit,
        balance_inr: c.balancePaise / 100,
        price_per_minute_inr: c.pricePerMinutePaise == null ? null : c.pricePerMinutePaise / 100,
        version: c.version,
      },
      c.id,
    );
  }

  createCampaign(body: Partial<CreateCampaignDto> = {}): Promise<CampaignDto> {
    return this.under.app.send(Subjects.campaigns.campaignCreate, this.id, {
      name: `Campaign ${randomUUID().slice(0, 6)}`,
      agent_id: this.agentId,
      ...body,
    } as CreateCampaignDto);
  }

  addContacts(campaignId: string, numbers: string[], variables: Record<string, unknown> = {}) {
    return this.under.app.send(Subjects.campaigns.contactsAdd, this.id, {
      id: campaignId,
      rows: numbers.map((phone_number, i) => ({ row: i + 1, contact: { phone_number, variables } })),
    });
  }

  start(campaignId: string): Promise<CampaignDto> {
    return this.under.app.send(Subjects.campaigns.campaignStart, this.context, {
      id: campaignId,
      options: {},
    });
  }

  pause(campaignId: string): Promise<CampaignDto> {
    return this.under.app.send(Subjects.campaigns.campaignPause, this.id, { id: campaignId });
  }

  resume(campaignId: string): Promise<CampaignDto> {
    return this.under.app.send(Subjects.campaigns.campaignResume, this.context, { id: campaignId });
  }

  campaign(campaignId: string): Promise<CampaignDto> {
    return this.under.app.send(Subjects.campaigns.campaignGet, this.id, { id: campaignId });
  }

  /** Every contact of the campaign in upload order, following the cursor. */
  async contacts(campaignId: string): Promise<CampaignContactDto[]> {
    const all: CampaignContactDto[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.under.app.send(Subjects.campaigns.contactsList, this.id, {
        id: campaignId,
        query: { limit: 100, cursor },
      });
      all.push(...page.contacts);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return all;
  }

  /** Waits for the campaign to reach `status`. */
  waitForStatus(campaignId: string, status: CampaignDto['status'], timeoutMs = 10_000): Promise<CampaignDto> {
    return waitFor(
      async () => {
        const c = await this.campaign(campaignId);
        return c.status === status ? c : undefined;
      },
      { timeoutMs, intervalMs: 20, description: `campaign ${campaignId} ${status}` },
    );
  }

  /** Waits for the running campaign to show that it waits on the contact policy, for `reason`. */
  waitForWaitingReason(campaignId: string, reason: CampaignDto['waiting_reason']): Promise<CampaignDto> {
    return waitFor(
      async () => {
        const c = await this.campaign(campaignId);
        return c.waiting_reason === reason ? c : undefined;
      },
      { timeoutMs: 5000, intervalMs: 20, description: `campaign ${campaignId} ${reason}` },
    );
  }

  /**
   * Ends the partner's calls as they are placed, each with the outcome `outcomeOf` picks for its number, until
   * the campaign completes; resolves to the completed campaign. `clockStepMs` moves the manual clock on by that
   * much at every look, for contacts that wait on it.
   */
  async runToCompletion(
    campaignId: string,
    {
      outcomeOf = () => 'completed',
      clockStepMs = 0,
    }: { outcomeOf?: (call: PlacedCall) => CallOutcome; clockStepMs?: number } = {},
  ): Promise<CampaignDto> {
    return waitFor(
      async () => {
        if (clockStepMs) this.under.app.clock.advance(clockStepMs);
        for (const call of this.under.calls.live(this.id).filter((c) => c.campaignId === campaignId))
          await this.under.calls.end(call, outcomeOf(call));
        const c = await this.campaign(campaignId);
        return c.status === 'completed' ? c : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 20, description: `campaign ${campaignId} completed` },
    );
  }
}

let serial = 0;

/** A distinct callee number. */
export function callee(): string {
  serial += 1;
  return `+9198${String(process.pid % 1000).padStart(3, '0')}${String(serial).padStart(5, '0')}`;
}
