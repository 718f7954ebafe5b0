import { randomUUID } from 'node:crypto';
import { Column, CreateDateColumn, DeepPartial, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { CarrierReconciliation } from '@vap/api';
import {
  AgentForCall,
  CallBillingRate,
  AgentSnapshot,
  AnsweredBy,
  CallDirection,
  CallDisposition,
  CallKind,
  CallProvider,
  CallStatus,
  CallTransfer,
  HangupSource,
  ModelPaidByEntry,
  SpeechProviderName,
  StoredAgentSnapshot,
  upgradeAgentSnapshot,
} from '@vap/messages';

@Entity({ name: 'calls' })
export class Call {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ name: 'agent_name', type: 'text', nullable: true })
  agentName: string | null;

  /** The agent's project when the call started (what its charge is counted under in billing usage). */
  @Column({ name: 'project_id', type: 'uuid', nullable: true })
  projectId: string | null;

  /** The campaign that dialled the call; null for POST /calls/start, inbound calls and browser sessions. */
  @Column({ name: 'campaign_id', type: 'text', nullable: true })
  campaignId: string | null;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @Column('text')
  direction: CallDirection;

  @Column({ name: 'from_number', type: 'text' })
  fromNumber: string;

  @Column({ name: 'to_number', type: 'text' })
  toNumber: string;

  @Column({ name: 'phone_number_id', type: 'text', nullable: true })
  phoneNumberId: string | null;

  /** The carrier connection the call runs on; null for a browser session (no carrier). */
  @Column({ name: 'connection_id', type: 'uuid', nullable: true })
  connectionId: string | null;

  /** A phone call, or a browser voice session (provider browser, no carrier; see browser-sessions/). */
  @Column({ type: 'text', default: 'phone' })
  kind: CallKind;

  /** standard: the calls' price; test: a test run's session, at TEST_CALL_PRICE_PER_MINUTE_PAISE. */
  @Column({ name: 'billing_rate', type: 'text', default: 'standard' })
  billingRate: CallBillingRate;

  @Column('text')
  provider: CallProvider;

  @Column({ name: 'provider_call_id', type: 'text', nullable: true })
  providerCallId: string | null;

  @Column('text')
  status: CallStatus;

  @Column({ type: 'text', nullable: true })
  disposition: CallDisposition | null;

  @Column({ name: 'answered_by', type: 'text', nullable: true })
  answeredBy: AnsweredBy | null;

  @Column({ name: 'end_call_reason', type: 'text', nullable: true })
  endCallReason: string | null;

  @Column({ name: 'hangup_cause', type: 'text', nullable: true })
  hangupCause: string | null;

  @Column({ name: 'hangup_source', type: 'text', nullable: true })
  hangupSource: HangupSource | null;

  @Column({ name: 'bill_duration_seconds', type: 'integer', nullable: true })
  billDurationSeconds: number | null;

  @Column({ name: 'duration_seconds', type: 'integer', nullable: true })
  durationSeconds: number | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ name: 'client_reference_id', type: 'text', nullable: true })
  clientReferenceId: string | null;

  /**
   * The account's customer (sub-tenant) the call is for, checked by the gateway when the call was asked for:
   * whose connections the call's custom functions use. Null: none named.
   */
  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId: string | null;

  @Column({ type: 'jsonb' })
  variables: Record<string, unknown>;

  /**
   * The agent as it was when the call started: later edits do not change a call in flight. Read in the current
   * shape whatever shape it was stored in (calls started by an older release keep theirs).
   */
  @Column({
    name: 'agent_settings',
    type: 'jsonb',
    transformer: {
      from: (stored: StoredAgentSnapshot | null) => stored && upgradeAgentSnapshot(stored),
      to: (snapshot: AgentSnapshot) => snapshot,
    },
  })
  agentSettings: AgentSnapshot;

  /** The agent holding the call now, taken when it was handed the call; null: the one it started with. */
  @Column({
    name: 'current_agent_settings',
    type: 'jsonb',
    nullable: true,
    transformer: {
      from: (stored: StoredAgentSnapshot | null) => stored && upgradeAgentSnapshot(stored),
      to: (snapshot: AgentSnapshot | null | undefined) => snapshot ?? null,
    },
  })
  currentAgentSettings: AgentSnapshot | null;

  /** The call's transfer to a human: type, outcome, times, legs (null: never transferred). */
  @Column({ type: 'jsonb', nullable: true })
  transfer: CallTransfer | null;

  /** A warm transfer's consult stream id: the human's leg streams to the media plane under it. */
  @Column({ name: 'transfer_consult_id', type: 'uuid', nullable: true })
  transferConsultId: string | null;

  /** What the agent tells the human on the consult stream before the caller is bridged. */
  @Column({ name: 'transfer_briefing', type: 'text', nullable: true })
  transferBriefing: string | null;

  /** The partner's concurrency limit when the call started (for account_concurrency on its events). */
  @Column({ name: 'concurrency_limit', type: 'integer', nullable: true })
  concurrencyLimit: number | null;

  /** How the call's end was checked with the carrier's REST API (null: not needed or not made yet). */
  @Column({ name: 'carrier_reconciliation', type: 'text', nullable: true })
  carrierReconciliation: CarrierReconciliation | null;

  /** When the carrier was last asked about this live call for want of news (CarrierSilenceCheck). */
  @Column({ name: 'carrier_checked_at', type: 'timestamptz', precision: 3, nullable: true })
  carrierCheckedAt: Date | null;

  /**
   * When the platform began asking the carrier to place this outbound call (null: never asked). A call asked
   * for but with no provider_call_id may be at the carrier: the placement recovery looks it up there.
   */
  @Column({ name: 'dial_started_at', type: 'timestamptz', precision: 3, nullable: true })
  dialStartedAt: Date | null;

  /**
   * Cloud speech providers that served the call on the platform's keys, sorted: what the voice service's
   * end-of-stream reports named ([]: offline engines or the partner's own keys only, or no report).
   */
  @Column({ name: 'platform_speech_providers', type: 'text', array: true, default: () => `'{}'` })
  platformSpeechProviders: SpeechProviderName[];

  /**
   * Whose key answered for each model that wrote the call's lines, as the voice service's end-of-stream reports
   * named it (a set, in no particular order; [] before a report or for calls before it was kept).
   */
  @Column({ name: 'model_paid_by', type: 'jsonb', default: () => `'[]'` })
  modelPaidBy: ModelPaidByEntry[];

  @Column({ name: 'provider_status', type: 'text', nullable: true })
  providerStatus: string | null;

  @Column({ name: 'provider_event', type: 'text', nullable: true })
  providerEvent: string | null;

  /** carrier_a's CallUUID of the answered leg (its hang-up names the leg, not the placement request). */
  @Column({ name: 'carrier_leg_id', type: 'text', nullable: true })
  carrierLegId: string | null;

  /** The platform asked the carrier to hang up (why: end_call_reason once the call has ended). */
  @Column({ name: 'end_requested_at', type: 'timestamptz', precision: 3, nullable: true })
  endRequestedAt: Date | null;

  @Column({ name: 'end_requested_reason', type: 'text', nullable: true })
  endRequestedReason: string | null;

  @Column({ name: 'started_at', type: 'timestamptz', precision: 3, nullable: true })
  startedAt: Date | null;

  @Column({ name: 'ended_at', type: 'timestamptz', precision: 3, nullable: true })
  endedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}

/** What differs between new calls: who places them, on which line, and how they were admitted. */
export type NewCallFields = Pick<
  Call,
  | 'partnerId'
  | 'direction'
  | 'fromNumber'
  | 'toNumber'
  | 'phoneNumberId'
  | 'connectionId'
  | 'provider'
  | 'providerCallId'
  | 'clientReferenceId'
  | 'variables'
  | 'concurrencyLimit'
  | 'providerStatus'
  | 'providerEvent'
> &
  Partial<Pick<Call, 'campaignId' | 'customerId'>>;

/**
 * The row every new call starts as, inbound or outbound (its session: newSession): pending, nothing
 * measured or decided yet, with the agent's settings copied so edits during the call change nothing.
 */
export function newCall(agent: AgentForCall, fields: NewCallFields): DeepPartial<Call> {
  return {
    id: randomUUID(),
    sessionId: randomUUID(),
    agentId: agent.id,
    agentName: agent.name,
    projectId: agent.projectId,
    campaignId: null,
    customerId: null,
    agentSettings: agent.snapshot,
    currentAgentSettings: null,
    transfer: null,
    status: 'pending',
    disposition: null,
    answeredBy: null,
    endCallReason: null,
    hangupCause: null,
    hangupSource: null,
    billDurationSeconds: null,
    durationSeconds: null,
    errorMessage: null,
    startedAt: null,
    endedAt: null,
    platformSpeechProviders: [],
    modelPaidBy: [],
    ...fields,
  };
}

/** The carrier connection of a phone call (every carrier path); a browser session has none. */
export function carrierConnectionOf(call: Pick<Call, 'id' | 'connectionId'>): string {
  if (call.connectionId === null)
    throw new Error(`call ${call.id} has no carrier connection (a browser session)`);
  return call.connectionId;
}
