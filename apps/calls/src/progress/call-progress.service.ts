import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AnsweredBy, AppError, CallStatus, DomainEvents, HangupSource } from '@vap/messages';
import { canMoveStatus, isTerminalStatus } from '../calls/call-status-machine';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { recordCallCharge } from '../charges/call-charges';
import { callTiming } from '../charges/call-timing';
import { RawCarrierEvent } from './raw-carrier-event';
import { normalizeCarrierStatus } from './status-normalization';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallsConfig } from '../config/calls.config';
import { legsEndedWithCall } from '../calls/transfer-legs';
import { accountConcurrency, readActiveCalls } from '../partners/partner-lock';
import { enqueuePostCall } from '../work-queue/post-call-jobs';
import { statusUpdatedData } from './status-event';
import { defaultDisposition, finalAnsweredBy } from './terminal-details';

/** A call is found by the platform's id (in callback URLs) or by the carrier's id for the call. */
export type CallRef = { callId: string } | { provider: string; providerCallId: string };

/** The carrier's machine detection changed what answered the call (answered_by). */
export interface AnsweredByChange {
  previous: AnsweredBy | null;
  next: AnsweredBy;
  /** The call's media stream to the voice service when the change was stored. */
  mediaStream: 'live' | 'ended' | null;
}

export interface ProgressResult {
  callId: string;
  /** false for a duplicate, a backwards move or a signal without status. */
  applied: boolean;
  duplicate: boolean;
  status: CallStatus;
  /** Set when this event changed answered_by on a call not yet ended. */
  answeredByChange?: AnsweredByChange;
}

/**
 * The one way carrier progress reaches a call, for every carrier. Statuses only
 * move forward (a late "ringing" after "in-progress" is kept in the log and ignored), a repeated
 * callback changes nothing, and each real move records call.status.updated in the same transaction.
 */
@Injectable()
export class CallProgressService {
  private readonly logger = new Logger(CallProgressService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly config: CallsConfig,
  ) {}

  async apply(ref: CallRef, event: RawCarrierEvent): Promise<ProgressResult> {
    return this.dataSource.transaction(async (em) => {
      const call = await em.findOne(Call, { where: this.where(ref), lock: { mode: 'pessimistic_write' } });
      if (!call) throw AppError.notFound('Call');
      const status = event.kind === 'status' ? normalizeCarrierStatus(this.signal(event)) : null;
      const logged = await this.log(em, call, event, status);
      if (!logged) return { callId: call.id, applied: false, duplicate: true, status: call.status };
      const previousAnswer = call.answeredBy;
      let applied = await this.applyTo(em, call, event, status);
      if (!applied) applied = await this.lateAnswer(em, call, event);
      if (!applied)
        await em.query(`UPDATE ${tableOf(em, 'carrier_events')} SET applied = false WHERE id = $1`, [logged]);
      const answeredByChange =
        event.answeredBy && call.answeredBy === event.answeredBy && previousAnswer !== event.answeredBy
          ? await this.answeredByChange(em, call, previousAnswer)
          : undefined;
      return {
        callId: call.id,
        applied,
        duplicate: false,
        status: call.status,
        ...(answeredByChange ? { answeredByChange } : {}),
      };
    });
  }

  private signal(event: RawCarrierEvent) {
    return {
      status: event.providerStatus,
      event: event.providerEvent,
      ended: event.ended,
      hangupCause: event.hangupCause,
    };
  }

  private where(ref: CallRef) {
    return 'callId' in ref
      ? { id: ref.callId }
      : { provider: ref.provider as Call['provider'], providerCallId: ref.providerCallId };
  }

  /** Logs the raw event; null when this exact callback was already received. */
  private async log(
    em: EntityManager,
    call: Call,
    event: RawCarrierEvent,
    status: CallStatus | null,
  ): Promise<string | null> {
    const id = randomUUID();
    const rows = (await em.query(
      `INSERT INTO ${tableOf(em, 'carrier_events')}
         (id, call_id, provider, dedupe_key, kind, provider_status, provider_event, sequence, status, applied, payload)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true, $10)
       ON CONFLICT (call_id, dedupe_key) DO NOTHING
       RETURNING id`,
      [
        id,
        call.id,
        event.provider,
        event.dedupeKey,
        event.kind,
        event.providerStatus,
        event.providerEvent,
        event.sequence,
        status,
        JSON.stringify(event),
      ],
    )) as { id: string }[];
    return rows.length ? id : null;
  }

  private async applyTo(
    em: EntityManager,
    call: Call,
    event: RawCarrierEvent,
    status: CallStatus | null,
  ): Promise<boolean> {
    if (event.recording) await this.attachRecording(em, call, event.recording);
    if (event.kind === 'hold' && event.hold) {
      if (isTerminalStatus(call.status)) return false;
      await em.query(
        `UPDATE ${tableOf(em, 'call_sessions')} SET hold_events = hold_events || $2::jsonb WHERE call_id = $1`,
        [
          call.id,
          JSON.stringify([
            {
              phase: event.hold.phase,
              kind: event.hold.kind,
              at: event.occurredAt.toISOString(),
              durationSecs: event.hold.durationSecs ?? null,
            },
          ]),
        ],
      );
      return true;
    }
    if (event.kind === 'recording') return !!event.recording;
    if (!status) return false;
    if (!canMoveStatus(call.status, status)) {
      if (status !== call.status) this.logger.debug(`call ${call.id}: ignored ${call.status} -> ${status}`);
      return false;
    }
    await this.move(em, call, status, event);
    return true;
  }

  /**
   * Machine detection that answers after the call was answered (an asynchronous result on a callback of its
   * own, or a later status callback): answered_by changes on a call in progress, its status does not.
   */
  private async lateAnswer(em: EntityManager, call: Call, event: RawCarrierEvent): Promise<boolean> {
    if (event.kind !== 'status' || !event.answeredBy || call.status !== 'in_progress') return false;
    if (event.answeredBy === call.answeredBy) return false;
    call.answeredBy = event.answeredBy;
    await em.update(Call, { id: call.id }, { answeredBy: event.answeredBy });
    return true;
  }

  private async answeredByChange(
    em: EntityManager,
    call: Call,
    previous: AnsweredBy | null,
  ): Promise<AnsweredByChange | undefined> {
    if (isTerminalStatus(call.status) || !call.answeredBy) return undefined;
    const session = await em.findOne(CallSession, {
      where: { callId: call.id },
      select: { mediaStream: true },
    });
    return { previous, next: call.answeredBy, mediaStream: session?.mediaStream ?? null };
  }

  private async move(
    em: EntityManager,
    call: Call,
    status: CallStatus,
    event: RawCarrierEvent,
  ): Promise<void> {
    const previous = call.status;
    const wasAnswered = call.startedAt !== null || status === 'in_progress';
    call.status = status;
    call.providerStatus = event.providerStatus;
    call.providerEvent = event.providerEvent;
    if (event.answeredBy) call.answeredBy = event.answeredBy;
    if (event.hangupCause !== undefined && event.hangupCause !== null) call.hangupCause = event.hangupCause;
    if (event.hangupSource) call.hangupSource = platformOwnedSource(call, event.hangupSource);
    if (event.errorMessage) call.errorMessage = event.errorMessage;
    if (event.endCallReason) call.endCallReason = event.endCallReason;
    if (event.reconciliation) call.carrierReconciliation = event.reconciliation;
    // A carrier reports the end of a call the platform hung up without saying why; the platform knows.
    if (isTerminalStatus(status) && !event.endCallReason && call.endRequestedReason)
      call.endCallReason = call.endRequestedReason;
    if (status === 'in_progress') call.startedAt = event.occurredAt;
    const terminal = isTerminalStatus(status);
    if (terminal) {
      call.endedAt = event.occurredAt;
      call.answeredBy = finalAnsweredBy(status, wasAnswered, call.answeredBy);
      call.disposition = event.disposition ?? defaultDisposition(status, call.answeredBy, call.endCallReason);
      const timing = callTiming(call, wasAnswered || status === 'completed', event.occurredAt, event);
      call.durationSeconds = timing.durationSeconds;
      call.billDurationSeconds = timing.billSeconds;
    }
    if (status === 'in_progress') {
      await em.update(CallSession, { callId: call.id }, { startedAt: event.occurredAt });
    }
    if (terminal) await this.writeEnd(em, call);
    else await this.writeCall(em, call);
    const active = await readActiveCalls(em, call.partnerId);
    await this.outbox.record(
      em,
      DomainEvents.callStatusUpdated,
      call.partnerId,
      statusUpdatedData(call, previous, accountConcurrency(call.concurrencyLimit, active), event.occurredAt),
    );
  }

  /**
   * The one end-of-call write, for every call whoever ends it (a carrier's final status, the sweeps, a
   * transport that ends its calls itself): in the caller's transaction, with the call row locked and its end
   * (status, ended_at, durations, reasons) set. The session goes to post-call processing, the call is charged
   * once, its post-call job queued, and the call row written last.
   */
  async writeEnd(em: EntityManager, call: Call): Promise<void> {
    await em.update(
      CallSession,
      { callId: call.id },
      { status: 'processing', endedAt: call.endedAt, durationSeconds: call.durationSeconds ?? 0 },
    );
    await recordCallCharge(em, call, this.config);
    await enqueuePostCall(em, call.id);
    // A transfer's legs still live (the caller bridged to the human) end with the call.
    const transfer = call.endedAt ? legsEndedWithCall(call.transfer, call.endedAt) : null;
    if (transfer) {
      call.transfer = transfer;
      await em.update(Call, { id: call.id }, { transfer });
    }
    await this.writeCall(em, call);
  }

  /**
   * Written last: an ending call's status update takes the partner's count (partner_active_calls, by
   * trigger) and holds it to commit, so ends are counted one at a time and for as short as can be.
   * The columns a move sets, by id: save() would read the row again first to find what changed.
   */
  private async writeCall(em: EntityManager, call: Call): Promise<void> {
    await em.update(
      Call,
      { id: call.id },
      {
        status: call.status,
        providerStatus: call.providerStatus,
        providerEvent: call.providerEvent,
        answeredBy: call.answeredBy,
        hangupCause: call.hangupCause,
        hangupSource: call.hangupSource,
        errorMessage: call.errorMessage,
        endCallReason: call.endCallReason,
        carrierReconciliation: call.carrierReconciliation,
        startedAt: call.startedAt,
        endedAt: call.endedAt,
        disposition: call.disposition,
        durationSeconds: call.durationSeconds,
        billDurationSeconds: call.billDurationSeconds,
      },
    );
  }

  private async attachRecording(
    em: EntityManager,
    call: Call,
    recording: NonNullable<RawCarrierEvent['recording']>,
  ): Promise<void> {
    if (recording.storageKey) {
      await em.update(
        CallSession,
        { callId: call.id },
        { recordingKey: recording.storageKey, recordingDurationSecs: recording.durationSeconds },
      );
    } else if (recording.url) {
      await em.update(
        CallSession,
        { callId: call.id },
        { recordingSourceUrl: recording.url, recordingDurationSecs: recording.durationSeconds },
      );
    }
  }
}

/**
 * A carrier reports a hang-up through its REST API as such (carrier_a's "API Request"); when the platform asked
 * for it (end_requested_reason), the platform hung up, and the call says so whichever of the carrier's final
 * callback and the platform's own end is applied first. 'api' stays for a hang-up nobody here asked for: a
 * partner's own request to its carrier, with its own credentials.
 */
function platformOwnedSource(call: Call, source: HangupSource): HangupSource {
  return source === 'api' && call.endRequestedReason ? 'system' : source;
}
