import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  AddressedSubjects,
  AppError,
  CallTransfer,
  CallTransferLeg,
  CarrierCallbackReply,
  DomainEvents,
  TransferLegStatus,
  TransferOutcome,
} from '@vap/messages';
import { OutboxService, RpcClient } from '@vap/messaging';
import { isTerminalStatus } from '../../calls/call-status-machine';
import { Call } from '../../calls/entities/call.entity';
import { liveSessionAsk } from '../../calls/live-session-ask';
import { CallbackUrls } from '../callback-urls';
import { CallbackRequest, CarrierAdapter, TRANSFER_LEG_EVENTS } from '../carrier-adapter';
import { carrierCallOf } from '../carrier-call';
import { hangupReply } from '../carrier-xml';
import { CarrierRegistry } from '../carrier-registry';
import { isLiveLeg } from '../../calls/transfer-legs';
import { callerLeg, platformNumberOf, transferredData } from './transfer-record';

/** end_call_reason of a call handed to a human. */
export const TRANSFERRED = 'transferred';

/** The callback events of a warm transfer's human leg, which TransferLegs handles rather than the call's progress. */
export function isTransferLegEvent(event: string): boolean {
  return (Object.values(TRANSFER_LEG_EVENTS) as string[]).includes(event);
}

/** The conference both legs meet in: one per call, never guessable from outside the account. */
export const conferenceRoomOf = (callId: string) => `vap-transfer-${callId}`;

const OK: CarrierCallbackReply = { status: 200, contentType: 'text/plain', body: '' };

/** What a warm transfer is asked to do (the agent's settings, checked by the caller). */
export interface WarmTransferStart {
  to: string;
  reason: string;
  briefing: string;
  ringTimeoutSecs: number;
}

/** How a settled transfer leaves the human's leg. */
interface Settlement {
  outcome: TransferOutcome;
  legStatus: TransferLegStatus;
  at: Date;
  /** Tell the voice replica holding the call (the agent waits for it). */
  notify: boolean;
}

/**
 * Warm transfers, carrier side: the human's leg is a second call placed with its own callbacks
 * (`transfer_answer`, `transfer_status` on the call's callback URL), whose answer streams to the media plane
 * under the transfer's consult id, where the agent briefs the human. The human's decision (calls.voice.
 * transfer_decision), the leg's own end (no answer, busy, failed, hung up) or the caller's end settles the
 * transfer once: bridged (both legs joined in a conference by the carrier), no_answer, declined or failed. Every
 * settlement is kept on the call (`transfer`), announced as call.transferred through the outbox, and told to the
 * voice replica holding the caller (voice.session.transfer_outcome), which takes the caller off hold or lets go.
 * Nothing the platform started runs after the call: the human's leg is hung up whenever the transfer does not
 * bridge, and the conference ends when either leg leaves it.
 */
@Injectable()
export class TransferLegs {
  private readonly logger = new Logger(TransferLegs.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: CarrierRegistry,
    private readonly urls: CallbackUrls,
    private readonly outbox: OutboxService,
    private readonly rpc: RpcClient,
  ) {}

  /** Whether the call's carrier can transfer warm (it places and bridges legs). */
  supports(provider: string): boolean {
    const adapter = this.carriers.get(provider);
    return !!(
      adapter.placeTransferLeg &&
      adapter.parseTransferLegCallback &&
      adapter.bridge &&
      adapter.hangupLeg
    );
  }

  /**
   * Records the transfer as under way and dials the human. False when the call has ended, a transfer of it is
   * already under way or bridged, or the carrier refused the leg (the transfer is then settled failed).
   */
  async start(callId: string, request: WarmTransferStart): Promise<boolean> {
    const requestedAt = new Date();
    const consultId = randomUUID();
    const call = await this.dataSource.transaction(async (em) => {
      const locked = await em.findOne(Call, { where: { id: callId }, lock: { mode: 'pessimistic_write' } });
      if (!locked || isTerminalStatus(locked.status)) return null;
      if (locked.transfer && (locked.transfer.outcome === null || locked.transfer.outcome === 'bridged'))
        return null;
      locked.transfer = {
        transfer_type: 'warm',
        to_number: request.to,
        reason: request.reason,
        outcome: null,
        requested_at: requestedAt.toISOString(),
        answered_at: null,
        bridged_at: null,
        legs: [
          callerLeg(locked, 'answered'),
          {
            role: 'human',
            carrier_call_id: null,
            from_number: platformNumberOf(locked),
            to_number: request.to,
            status: 'ringing',
            started_at: requestedAt.toISOString(),
            answered_at: null,
            ended_at: null,
          },
        ],
      };
      locked.transferConsultId = consultId;
      locked.transferBriefing = request.briefing;
      return em.save(locked);
    });
    if (!call) return false;
    const adapter = this.carriers.get(call.provider);
    let placed: { carrierCallId: string };
    try {
      placed = await adapter.placeTransferLeg!(carrierCallOf(call), {
        from: platformNumberOf(call),
        to: request.to,
        ringTimeoutSecs: request.ringTimeoutSecs,
        callbackUrl: this.urls.forCall(call.provider, call.id),
      });
    } catch (err) {
      this.logger.warn(
        `call ${call.id}: ${call.provider} refused the transfer leg: ${(err as Error).message}`,
      );
      await this.settle(consultId, { outcome: 'failed', legStatus: 'failed', at: new Date(), notify: false });
      return false;
    }
    const current = await this.updateLeg(consultId, (transfer, human) => {
      human.carrier_call_id ??= placed.carrierCallId;
      return transfer;
    });
    // Settled meanwhile (the caller hung up while the carrier was asked): the leg must not ring on.
    if (current && current.outcome !== null && current.outcome !== 'bridged') {
      await this.hangUpHuman(call, placed.carrierCallId);
    }
    return true;
  }

  /** A callback of the human's leg: its answer (the consult stream's markup) or a status. */
  async legCallback(
    adapter: CarrierAdapter,
    call: Call,
    request: CallbackRequest,
  ): Promise<CarrierCallbackReply> {
    const consultId = call.transferConsultId;
    if (!consultId || !call.transfer || !adapter.parseTransferLegCallback)
      throw AppError.notFound('Callback');
    const human = humanLegOf(call.transfer);
    const parsed = await adapter.parseTransferLegCallback(request, carrierCallOf(call), {
      carrierCallId: null,
      consultId,
      room: conferenceRoomOf(call.id),
    });
    const ids = [parsed.carrierCallId, parsed.placementId].filter((id): id is string => !!id);
    if (request.params.event === TRANSFER_LEG_EVENTS.conference) {
      // A leg moved to the bridge fetches its conference: only the call's own two legs, while it bridges.
      const legs = [human.carrier_call_id, call.carrierLegId ?? call.providerCallId];
      const bridging = call.transfer.outcome === null || call.transfer.outcome === 'bridged';
      return bridging && ids.some((id) => legs.includes(id)) && parsed.reply ? parsed.reply : hangupReply();
    }
    if (human.carrier_call_id && !ids.includes(human.carrier_call_id)) {
      // A leg of an earlier transfer of the call (the agent tried again): never this transfer's consult.
      return parsed.reply ? hangupReply() : OK;
    }
    // The carrier's clock (whole seconds on carrier_b) never puts a leg's times before the transfer was asked.
    const at = new Date(Math.max(parsed.occurredAt.getTime(), Date.parse(call.transfer.requested_at)));
    const settled = call.transfer.outcome !== null || isTerminalStatus(call.status);
    if (settled) {
      // A leg that outlives its transfer (its answer or ringing raced the end) is hung up; an ended one is noted.
      if (parsed.status === 'completed' || parsed.status === 'no_answer' || parsed.status === 'busy') {
        await this.updateLeg(consultId, (transfer, leg) => {
          // A bridged (or answered) leg that hangs up has completed: its status says so, as its end time does.
          if (parsed.status === 'completed' && leg.ended_at === null && isLiveLeg(leg))
            leg.status = 'completed';
          leg.ended_at ??= at.toISOString();
          return transfer;
        });
        return OK;
      }
      if (call.transfer.outcome !== 'bridged' && parsed.carrierCallId) {
        await this.hangUpHuman(call, parsed.carrierCallId);
      }
      return parsed.reply ? hangupReply() : OK;
    }
    switch (parsed.status) {
      case 'ringing':
      case 'answered':
        await this.updateLeg(consultId, (transfer, leg) => {
          // carrier_a's leg is known by its request_uuid until a callback names its CallUUID.
          if (parsed.carrierCallId) leg.carrier_call_id = parsed.carrierCallId;
          if (parsed.status === 'answered') {
            leg.status = 'answered';
            leg.answered_at ??= at.toISOString();
            transfer.answered_at ??= leg.answered_at;
          }
          return transfer;
        });
        return parsed.reply ?? OK;
      case 'no_answer':
      case 'busy':
        await this.settle(consultId, { outcome: 'no_answer', legStatus: parsed.status, at, notify: true });
        return OK;
      case 'failed':
        await this.settle(consultId, { outcome: 'failed', legStatus: 'failed', at, notify: true });
        return OK;
      case 'completed':
        // The human hung up before saying yes: declined.
        await this.settle(consultId, { outcome: 'declined', legStatus: 'declined', at, notify: true });
        return OK;
      default:
        return parsed.reply ?? OK;
    }
  }

  /**
   * The human's answer on the consult stream: accepted bridges both legs in the carrier's conference, declined
   * hangs the human up. Answers the transfer's outcome (one decided before stands).
   */
  async decide(consultId: string, accepted: boolean): Promise<TransferOutcome | null> {
    const call = await this.byConsultId(consultId);
    if (!call?.transfer) throw AppError.notFound('Transfer');
    if (call.transfer.outcome !== null) return call.transfer.outcome;
    const human = humanLegOf(call.transfer);
    const adapter = this.carriers.get(call.provider);
    if (!accepted || !human.carrier_call_id || isTerminalStatus(call.status)) {
      if (human.carrier_call_id) await this.hangUpHuman(call, human.carrier_call_id);
      const outcome = accepted ? 'failed' : 'declined';
      return this.settle(consultId, { outcome, legStatus: outcome, at: new Date(), notify: true });
    }
    let bridged = false;
    try {
      bridged = await adapter.bridge!(carrierCallOf(call), human.carrier_call_id, conferenceRoomOf(call.id));
    } catch (err) {
      this.logger.warn(`call ${call.id}: ${call.provider} refused the bridge: ${(err as Error).message}`);
    }
    if (!bridged) {
      await this.hangUpHuman(call, human.carrier_call_id);
      return this.settle(consultId, { outcome: 'failed', legStatus: 'failed', at: new Date(), notify: true });
    }
    return this.settle(consultId, { outcome: 'bridged', legStatus: 'bridged', at: new Date(), notify: true });
  }

  /**
   * The caller's side withdraws a transfer still under way (the agent gave up waiting): the human's leg is hung
   * up and the transfer settled failed. Answers the outcome (one decided before stands).
   */
  async withdraw(callId: string, partnerId: string | null): Promise<TransferOutcome | null> {
    const call = await this.dataSource.getRepository(Call).findOne({ where: { id: callId } });
    if (!call || (partnerId && partnerId !== call.partnerId)) throw AppError.notFound('Call');
    if (!call.transfer || !call.transferConsultId) return null;
    if (call.transfer.outcome !== null) return call.transfer.outcome;
    const human = humanLegOf(call.transfer);
    if (human.carrier_call_id) await this.hangUpHuman(call, human.carrier_call_id);
    return this.settle(call.transferConsultId, {
      outcome: 'failed',
      legStatus: 'failed',
      at: new Date(),
      notify: false,
    });
  }

  /** The call has ended: a transfer still under way ends with it, its human leg hung up. */
  async callEnded(call: Call): Promise<void> {
    if (!call.transfer || !call.transferConsultId || call.transfer.outcome !== null) return;
    const human = humanLegOf(call.transfer);
    if (human.carrier_call_id) await this.hangUpHuman(call, human.carrier_call_id);
    await this.settle(call.transferConsultId, {
      outcome: 'failed',
      legStatus: 'failed',
      at: new Date(),
      notify: false,
    });
  }

  /** The call a consult stream belongs to. */
  byConsultId(consultId: string): Promise<Call | null> {
    return this.dataSource.getRepository(Call).findOne({ where: { transferConsultId: consultId } });
  }

  private async hangUpHuman(call: Call, carrierCallId: string): Promise<void> {
    try {
      await this.carriers.get(call.provider).hangupLeg!(carrierCallOf(call), carrierCallId);
    } catch (err) {
      this.logger.warn(
        `call ${call.id}: the transfer leg ${carrierCallId} could not be hung up: ${(err as Error).message}`,
      );
    }
  }

  /** Changes the transfer of the call whose consult id this is, the call locked; null when it has none. */
  private updateLeg(
    consultId: string,
    change: (transfer: CallTransfer, human: CallTransferLeg) => CallTransfer,
  ): Promise<CallTransfer | null> {
    return this.dataSource.transaction(async (em) => {
      const call = await em.findOne(Call, {
        where: { transferConsultId: consultId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!call?.transfer) return null;
      const transfer = change(call.transfer, humanLegOf(call.transfer));
      await em.update(Call, { id: call.id }, { transfer });
      return transfer;
    });
  }

  /**
   * Settles the transfer once (a later settlement answers the first one's outcome): the legs and times on the
   * call, call.transferred in the same transaction, then the voice replica told.
   */
  private async settle(consultId: string, s: Settlement): Promise<TransferOutcome | null> {
    const at = s.at.toISOString();
    const settled = await this.dataSource.transaction(async (em) => {
      const call = await em.findOne(Call, {
        where: { transferConsultId: consultId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!call?.transfer) return null;
      if (call.transfer.outcome !== null) return { call, first: false };
      const transfer = call.transfer;
      const [caller, human] = [callerLegOf(transfer), humanLegOf(transfer)];
      transfer.outcome = s.outcome;
      human.status = s.legStatus;
      if (s.outcome === 'bridged') {
        caller.status = 'bridged';
        transfer.bridged_at = at;
        call.endCallReason = TRANSFERRED;
      } else {
        human.ended_at ??= at;
      }
      call.transfer = transfer;
      await em.update(
        Call,
        { id: call.id },
        { transfer, ...(s.outcome === 'bridged' ? { endCallReason: TRANSFERRED } : {}) },
      );
      await this.outbox.record(
        em,
        DomainEvents.callTransferred,
        call.partnerId,
        transferredData(call, transfer),
      );
      return { call, first: true };
    });
    if (!settled) return null;
    const outcome = settled.call.transfer!.outcome;
    if (settled.first && s.notify && outcome) await this.tellVoice(settled.call, outcome);
    return outcome;
  }

  /** Tells the replica holding the caller's session how the transfer ended; nobody holding it is fine. */
  private async tellVoice(call: Call, outcome: TransferOutcome): Promise<void> {
    try {
      await this.rpc.request(
        AddressedSubjects.voice.transferOutcome,
        call.partnerId,
        { callId: call.id, outcome },
        liveSessionAsk(call.id),
      );
    } catch (err) {
      this.logger.warn(
        `call ${call.id}: no voice replica took the transfer's ${outcome}: ${(err as Error).message}`,
      );
    }
  }
}

/** The number the platform shows on the call: its own side's. */
function callerLegOf(transfer: CallTransfer): CallTransferLeg {
  return transfer.legs.find((leg) => leg.role === 'caller')!;
}

function humanLegOf(transfer: CallTransfer): CallTransferLeg {
  return transfer.legs.find((leg) => leg.role === 'human')!;
}
