import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  AppError,
  BAD_ORIGIN_DETAIL_FIELD,
  BROWSER_REFUSAL_DETAIL_FIELD,
  BROWSER_REFUSAL_ORIGIN_MAX,
  BrowserRefusalReason,
  ErrorCode,
  isUuid,
  PartnerContext,
} from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { isTerminalStatus } from '../../calls/call-status-machine';
import { Call } from '../../calls/entities/call.entity';
import { CallSession } from '../../calls/entities/call-session.entity';
import { callTiming } from '../../charges/call-timing';
import { CallsConfig } from '../../config/calls.config';
import { CallProgressService } from '../../progress/call-progress.service';
import { EndReasons } from '../../progress/end-reasons';
import { DirectTransport } from '../call-transport';
import { BrowserSession } from './entities/browser-session.entity';

/** The provider (and kind) of a browser session's call row. */
export const BROWSER = 'browser' as const;

/**
 * The browser as a call's transport, and a browser session's life on its call row. There is no carrier: the
 * session is answered when the browser's stream attaches, and ends the moment the platform ends it (the voice
 * service's end report, a hang-up, a lost voice replica, the balance guard), through CallProgressService's
 * end-of-call write: the call's one charge (per connected second) and post-call work (session.completed with
 * source browser). No call.status.updated is recorded for a session.
 */
@Injectable()
export class BrowserTransport implements DirectTransport {
  readonly provider = BROWSER;
  private readonly logger = new Logger(BrowserTransport.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly progress: CallProgressService,
  ) {}

  /**
   * Before a browser stream's token is claimed (calls.voice.attach with carrier browser): the upgrade's Origin is
   * one the session allows (403, detail field origin), the partner may still call (403), the session has not
   * ended and, while pending, has not expired (404). The Origin comes first, so a page the session does not allow
   * learns nothing else of it. Each refusal is recorded on the session (last_refusal) and names its reason in the
   * detail BROWSER_REFUSAL_DETAIL_FIELD, for the voice service to tell the page.
   */
  async checkStreamAttach(call: Call, headers: Record<string, string>): Promise<void> {
    if (call.kind !== BROWSER) throw AppError.notFound('Browser session');
    const browser = await this.dataSource.getRepository(BrowserSession).findOneBy({ callId: call.id });
    if (!browser) throw AppError.notFound('Browser session');
    const given = headers['origin'];
    const origin = typeof given === 'string' ? given : null;
    if (origin === null || !browser.allowedOrigins.includes(origin)) {
      this.logger.warn(`browser session ${call.id}: refused a stream from origin ${origin ?? '(none)'}`);
      throw await this.refuse(
        call.id,
        'origin_not_allowed',
        origin,
        new AppError(ErrorCode.FORBIDDEN, 'This origin may not open the browser session', {
          details: [
            {
              field: BAD_ORIGIN_DETAIL_FIELD,
              message: 'the Origin is not one of the session allowed_origins',
            },
          ],
        }),
      );
    }
    const [standing] = (await this.dataSource.query(
      `SELECT status FROM ${tableOf(this.dataSource, 'partner_standing')} WHERE partner_id = $1`,
      [call.partnerId],
    )) as { status: PartnerContext['status'] }[];
    if (standing && standing.status !== 'approved') {
      throw await this.refuse(
        call.id,
        'account_restricted',
        origin,
        new AppError(ErrorCode.FORBIDDEN, 'This account may not run sessions now'),
      );
    }
    if (isTerminalStatus(call.status)) {
      // A session that expired unconnected: its token lapsed, whatever the token's own expiry says.
      const reason = browser.expired ? 'token_expired' : 'session_ended';
      throw await this.refuse(call.id, reason, origin, AppError.notFound('Browser session'));
    }
    // An active session goes on to the token's claim, which refuses a second stream (409).
    if (call.status === 'pending' && browser.expiresAt.getTime() <= Date.now()) {
      throw await this.refuse(call.id, 'token_expired', origin, AppError.notFound('Browser session'));
    }
  }

  /**
   * Records a refused connection attempt as the session's last refusal: one row update, overwriting the one
   * before, and nothing at all when `callId` names no browser session. Only attempts holding a token the
   * platform signed for the session come here (the voice service checks it first), so no one else writes it.
   */
  async recordRefusal(callId: string, reason: BrowserRefusalReason, origin: string | null): Promise<void> {
    if (!isUuid(callId)) return;
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, BrowserSession)}
          SET last_refusal_reason = $2, last_refusal_origin = $3, last_refusal_at = now()
        WHERE call_id = $1`,
      [callId, reason, origin === null ? null : origin.slice(0, BROWSER_REFUSAL_ORIGIN_MAX)],
    );
  }

  /** Records the refusal, and answers `error` with the detail that names its reason. */
  private async refuse(
    callId: string,
    reason: BrowserRefusalReason,
    origin: string | null,
    error: AppError,
  ): Promise<AppError> {
    await this.recordRefusal(callId, reason, origin);
    return new AppError(error.code, error.message, {
      details: [...(error.details ?? []), { field: BROWSER_REFUSAL_DETAIL_FIELD, message: reason }],
    });
  }

  /**
   * A claim refused: the token opened the session already (409, token_used) or the session ended meanwhile
   * (404, session_ended). The refusal is recorded and named in the detail the page is told of.
   */
  async streamRefused(call: Call, headers: Record<string, string>, error: AppError): Promise<AppError> {
    if (error.status !== 409 && error.status !== 404) return error;
    const origin = typeof headers['origin'] === 'string' ? headers['origin'] : null;
    return this.refuse(call.id, error.status === 409 ? 'token_used' : 'session_ended', origin, error);
  }

  /** The stream attached (in the attach's transaction, the call row locked): the session is active from now. */
  async streamAttached(em: EntityManager, call: Call): Promise<void> {
    const now = new Date();
    const moved = (await em.query(
      `UPDATE ${tableOf(em, Call)} SET status = 'in_progress', started_at = $2, answered_by = 'human', updated_at = now()
        WHERE id = $1 AND kind = 'browser' AND status = 'pending' RETURNING id`,
      [call.id, now],
    )) as [unknown[], number];
    if (moved[1] !== 1) throw AppError.notFound('Browser session');
    await em.update(CallSession, { callId: call.id }, { startedAt: now });
    // The conversation is told who answered: the person at the browser.
    call.status = 'in_progress';
    call.startedAt = now;
    call.answeredBy = 'human';
  }

  /**
   * Ends a browser session now, whoever ends it (the voice service's reports, a hang-up, a lost voice replica,
   * the balance guard): completed when it was connected (its connected seconds charged once), else failed. A
   * session already ended changes nothing, so a second end charges nothing.
   */
  async endNow(callId: string, reason: string | null): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const call = await em.findOne(Call, { where: { id: callId }, lock: { mode: 'pessimistic_write' } });
      if (!call || call.kind !== BROWSER || isTerminalStatus(call.status)) return;
      const endedAt = new Date();
      const answered = call.startedAt !== null;
      const timing = callTiming(call, answered, endedAt, {});
      call.status = answered ? 'completed' : 'failed';
      call.disposition = answered ? 'completed' : 'failed';
      call.endCallReason = call.endCallReason ?? reason ?? call.endRequestedReason ?? 'session_ended';
      call.hangupSource = call.hangupSource ?? 'system';
      call.endedAt = endedAt;
      call.durationSeconds = timing.durationSeconds;
      call.billDurationSeconds = timing.billSeconds;
      await this.progress.writeEnd(em, call);
    });
  }

  /** Ends the pending sessions whose token lapsed unused (no charge); answers how many. */
  async expire(limit = 100): Promise<number> {
    const ids = (await this.dataSource.query(
      `SELECT c.id FROM ${tableOf(this.dataSource, Call)} c
         JOIN ${tableOf(this.dataSource, BrowserSession)} b ON b.call_id = c.id
        WHERE c.kind = 'browser' AND c.status = 'pending' AND b.expires_at <= now()
        ORDER BY b.expires_at LIMIT $1`,
      [limit],
    )) as { id: string }[];
    let expired = 0;
    for (const { id } of ids) {
      const done = await this.dataSource.transaction(async (em) => {
        const call = await em.findOne(Call, { where: { id }, lock: { mode: 'pessimistic_write' } });
        if (!call || call.status !== 'pending') return false;
        call.status = 'canceled';
        call.disposition = 'canceled';
        call.answeredBy = 'not_answered';
        call.endCallReason = EndReasons.browserSessionExpired;
        call.hangupSource = 'system';
        call.endedAt = new Date();
        call.durationSeconds = 0;
        call.billDurationSeconds = 0;
        await em.update(BrowserSession, { callId: id }, { expired: true });
        await this.progress.writeEnd(em, call);
        return true;
      });
      if (done) expired++;
    }
    return expired;
  }

  /**
   * Ends the active sessions that outlived their agent's max_call_duration_secs (or STALE_CALL_UNCAPPED_SECS)
   * by STALE_CALL_GRACE_SECS, as the stale-call sweep fails calls: the voice service's end report never came.
   */
  async endStale(limit = 50): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM ${tableOf(this.dataSource, Call)}
        WHERE kind = 'browser' AND status = 'in_progress'
          AND started_at < now() - make_interval(secs =>
                COALESCE((agent_settings->>'maxCallDurationSecs')::int, (agent_settings->>'max_call_duration_secs')::int, $1) + $2)
        ORDER BY started_at LIMIT $3`,
      [this.config.STALE_CALL_UNCAPPED_SECS, this.config.STALE_CALL_GRACE_SECS, limit],
    )) as { id: string }[];
    for (const { id } of rows) await this.endNow(id, EndReasons.staleCall);
    return rows.length;
  }
}
