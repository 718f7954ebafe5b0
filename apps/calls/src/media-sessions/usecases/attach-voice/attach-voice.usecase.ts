import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  AppError,
  CallStatus,
  ErrorCode,
  isUuid,
  STREAM_TAKEN_DETAIL,
  VoiceAttachRequest,
  VoiceCallContext,
} from '@vap/messages';
import { ACTIVE_CALL_STATUSES, isTerminalStatus } from '../../../calls/call-status-machine';
import { tableOf } from '@vap/persistence';
import { Call } from '../../../calls/entities/call.entity';
import { CallSession } from '../../../calls/entities/call-session.entity';
import { CallTransports, DirectTransport } from '../../../carriers/call-transport';
import { MediaStreamClaims } from './media-stream-claims';
import { findVoiceCall } from '../../voice-calls';
import { carrierCallOf } from '../../../carriers/carrier-call';
import { TransferLegs } from '../../../carriers/transfer-legs/transfer-legs.service';

/**
 * calls.voice.attach: the voice service accepted a media-stream upgrade whose token it verified. Here the
 * call must be live on the carrier the stream names (404), the carrier's own signature on the upgrade must
 * hold where the carrier signs upgrades (403), and the token's nonce is claimed once across replicas (409),
 * in that order so a forged upgrade cannot burn the carrier's token. Then the call's one media stream is
 * claimed (409 with STREAM_TAKEN_DETAIL): a call opens a single stream in its life, whatever token a
 * partner's own signed answer fetches minted, so one call never runs two paid conversations, and a stream
 * that ended is not replaced. The answer is what the conversation needs of the call.
 */
@Injectable()
export class AttachVoice {
  private readonly logger = new Logger(AttachVoice.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transports: CallTransports,
    private readonly claims: MediaStreamClaims,
    private readonly transferLegs: TransferLegs,
  ) {}

  async execute(request: VoiceAttachRequest): Promise<VoiceCallContext> {
    if (typeof request.nonce !== 'string' || !request.nonce || typeof request.url !== 'string') {
      throw AppError.validation([
        { field: 'nonce', message: 'an attach names the token nonce and stream URL' },
      ]);
    }
    if (typeof request.replicaId !== 'string' || !REPLICA_ID.test(request.replicaId)) {
      throw AppError.validation([
        { field: 'replicaId', message: 'an attach names the voice replica serving it' },
      ]);
    }
    const consultOf = isUuid(request.callId) ? await this.transferLegs.byConsultId(request.callId) : null;
    if (consultOf) return this.attachConsult(request, consultOf);
    const call = await findVoiceCall(this.dataSource, request.callId, null);
    if (call.provider !== request.carrier) throw AppError.notFound('Call');
    const headers = lowerCaseNames(request.headers ?? {});
    const direct = this.transports.directOf(call.provider);
    // A transport with no carrier (the browser's allowed origins stand for the carrier's signature) checks
    // the attach itself, ended calls included.
    if (direct) await direct.checkStreamAttach(call, headers);
    else if (isTerminalStatus(call.status)) throw AppError.notFound('Call');
    try {
      await this.claim(request, call, direct);
    } catch (err) {
      // Such a transport records the refusal the caller is told of.
      if (direct && err instanceof AppError) throw await direct.streamRefused(call, headers, err);
      throw err;
    }
    return contextOf(call);
  }

  /**
   * A warm transfer's consult stream (the human's leg, answered): the carrier's signature on the upgrade, the
   * token's nonce, then the briefing, taken once, so a transfer opens one consult stream. The context is the
   * consult's: its own id, the human's number, the agent holding the call, and the briefing.
   */
  private async attachConsult(request: VoiceAttachRequest, call: Call): Promise<VoiceCallContext> {
    const consultId = call.transferConsultId!;
    if (call.provider !== request.carrier || !call.transfer || call.transfer.outcome !== null) {
      throw AppError.notFound('Call');
    }
    if (isTerminalStatus(call.status)) throw AppError.notFound('Call');
    const adapter = this.transports.carrierOf(call.provider);
    if (adapter.verifyStreamUpgrade) {
      const headers = lowerCaseNames(request.headers ?? {});
      if (!(await adapter.verifyStreamUpgrade(carrierCallOf(call), request.url, headers))) {
        this.logger.warn(
          `call ${call.id}: consult stream upgrade without a valid ${call.provider} signature`,
        );
        throw new AppError(ErrorCode.FORBIDDEN, 'The stream upgrade carries no valid carrier signature');
      }
    }
    const briefing = await this.dataSource.transaction(async (em) => {
      if ((await this.claims.claim(request.nonce, call.id, em)) !== 'claimed') {
        throw AppError.conflict('This stream token was used already');
      }
      const calls = tableOf(em, Call);
      const [row] = (await em.query(
        `SELECT transfer_briefing AS briefing FROM ${calls} WHERE id = $1 AND transfer_consult_id = $2 FOR UPDATE`,
        [call.id, consultId],
      )) as { briefing: string | null }[];
      if (!row?.briefing) {
        throw new AppError(ErrorCode.CONFLICT, "This transfer's consult stream was opened already", {
          details: [STREAM_TAKEN_DETAIL],
        });
      }
      await em.query(`UPDATE ${calls} SET transfer_briefing = NULL WHERE id = $1`, [call.id]);
      return row.briefing;
    });
    const human = call.transfer.legs.find((leg) => leg.role === 'human');
    return {
      ...contextOf(call),
      callId: consultId,
      fromNumber: human?.from_number ?? call.fromNumber,
      toNumber: call.transfer.to_number,
      answeredBy: 'human',
      agent: { ...(call.currentAgentSettings ?? call.agentSettings), enableRecording: false },
      consult: { callId: call.id, briefing },
    };
  }

  /** The carrier's signature, then the token's nonce and the call's one stream, claimed with the call locked. */
  private async claim(
    request: VoiceAttachRequest,
    call: Call,
    direct: DirectTransport | null,
  ): Promise<void> {
    const adapter = direct ? null : this.transports.carrierOf(call.provider);
    if (adapter?.verifyStreamUpgrade) {
      const headers = lowerCaseNames(request.headers ?? {});
      if (!(await adapter.verifyStreamUpgrade(carrierCallOf(call), request.url, headers))) {
        this.logger.warn(`call ${call.id}: media stream upgrade without a valid ${call.provider} signature`);
        throw new AppError(ErrorCode.FORBIDDEN, 'The stream upgrade carries no valid carrier signature');
      }
    }
    await this.dataSource.transaction(async (em) => {
      // The call row first, like the progress path: the call cannot end between this check and the claim,
      // so a stream only ever opens for a call its partner's concurrency limit counts as active.
      const [locked] = (await em.query(`SELECT status FROM ${tableOf(em, Call)} WHERE id = $1 FOR UPDATE`, [
        call.id,
      ])) as { status: CallStatus }[];
      if (!locked || !ACTIVE_CALL_STATUSES.includes(locked.status)) throw AppError.notFound('Call');
      const attemptId = typeof request.attemptId === 'string' ? request.attemptId.slice(0, 128) : null;
      const nonce = await this.claims.claim(request.nonce, call.id, em, attemptId);
      if (nonce === 'retried' && (await this.streamOf(em, call.id)) === request.replicaId) {
        // This replica's own attempt took the stream and lost the answer: the same stream, answered again.
        return;
      }
      if (nonce !== 'claimed') throw AppError.conflict('This stream token was used already');
      // Post-call processing now waits for the voice service's end-of-stream report; the replica is watched
      // (LostVoiceReplicaReaper) so the call ends should it die first.
      const claimed = (await em.query(
        `UPDATE ${tableOf(em, CallSession)} SET media_stream = 'live', voice_replica_id = $2
          WHERE call_id = $1 AND media_stream IS NULL RETURNING call_id`,
        [call.id, request.replicaId],
      )) as [unknown[], number];
      if (claimed[1] !== 1) {
        this.logger.warn(`call ${call.id}: a second media stream was refused (the call has opened one)`);
        throw new AppError(ErrorCode.CONFLICT, 'This call has opened its media stream already', {
          details: [STREAM_TAKEN_DETAIL],
        });
      }
      if (direct) await direct.streamAttached(em, call);
    });
  }

  /** The voice replica serving the call's live stream, if one is. */
  private async streamOf(em: EntityManager, callId: string): Promise<string | null> {
    const [row] = (await em.query(
      `SELECT voice_replica_id FROM ${tableOf(em, CallSession)} WHERE call_id = $1 AND media_stream = 'live'`,
      [callId],
    )) as { voice_replica_id: string | null }[];
    return row?.voice_replica_id ?? null;
  }
}

/** A heartbeat key: the replica's UUID, or any id made of key-safe characters. */
const REPLICA_ID = /^[A-Za-z0-9_-]{1,128}$/;

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function contextOf(call: Call): VoiceCallContext {
  return {
    callId: call.id,
    partnerId: call.partnerId,
    agentId: call.agentId,
    sessionId: call.sessionId,
    direction: call.direction,
    fromNumber: call.fromNumber,
    toNumber: call.toNumber,
    provider: call.provider,
    variables: call.variables ?? {},
    customerId: call.customerId ?? null,
    answeredBy: call.answeredBy,
    agent: call.agentSettings,
  };
}
