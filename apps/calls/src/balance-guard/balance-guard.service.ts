import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AddressedSubjects, AppError, ErrorCode, PartnerContext } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { PeriodicTask } from '@vap/runtime';
import { CallTransports } from '../carriers/call-transport';
import { liveSessionAsk } from '../calls/live-session-ask';
import { CallsConfig } from '../config/calls.config';
import { overdrawnCalls, startFunds } from '../charges/balance-exposure';
import { pricePerMinutePaise } from '../charges/call-charges';
import { EndReasons } from '../progress/end-reasons';
import { PartnerBalances } from '../partners/partner-balances';
import { carrierCallOfRow } from '../carriers/carrier-call';

interface ClaimedCall {
  id: string;
  partner_id: string;
  connection_id: string;
  provider: string;
  provider_call_id: string | null;
  carrier_leg_id: string | null;
  /** The call's media stream to a voice replica ('live' while the voice service holds the session). */
  media_stream: 'live' | 'ended' | null;
  /** An earlier hang-up was asked for and the call is still in progress. */
  retry: boolean;
}

/** A hang-up the carrier has not acted on after this long is asked for again. */
const HANGUP_RETRY_SECS = 10;

/**
 * Keeps calls within what partners can pay. The balance is checked when a call starts, but calls run on
 * after that: every BALANCE_GUARD_INTERVAL_MS each replica looks for partners whose projected balance
 * (PartnerBalances) no longer covers their calls in progress plus their calls not yet charged, and ends
 * those calls with end_call_reason insufficient_balance. New calls are refused meanwhile.
 *
 * A call whose media stream is live is ended by the voice replica holding it (voice.session.end): the
 * agent's farewell, then the hang-up through calls.voice.hangup. When no replica takes that on within
 * LIVE_SESSION_ASK_TIMEOUT_MS, when the stream is not live, and always on a retry (the call still in progress
 * HANGUP_RETRY_SECS after the first ask), the carrier hangs up at once, so a lost farewell never keeps a
 * call running on an empty balance.
 */
@Injectable()
export class BalanceGuard implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BalanceGuard.name);
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly transports: CallTransports,
    private readonly balances: PartnerBalances,
    private readonly rpc: RpcClient,
  ) {
    this.task = new PeriodicTask({
      label: 'balance sweep',
      intervalMs: this.config.BALANCE_GUARD_INTERVAL_MS,
      run: () => this.sweep(),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  /**
   * Refuses a new call (403) when the partner's balance, less what its live and not-yet-charged calls
   * have cost, is below `minimumPaise`. The balance is the newer of the command's snapshot and the
   * projection: the gateway may have read the snapshot just before a charge the projection already shows.
   */
  async assertCanStart(partner: PartnerContext, minimumPaise: number): Promise<void> {
    await this.balances.seed(partner);
    const price = pricePerMinutePaise('standard', partner, this.config);
    const { balancePaise: balance, committedPaise: committed } = await startFunds(
      this.dataSource.manager,
      partner,
      price,
    );
    if (balance - committed >= minimumPaise) return;
    const inr = (paise: number) => (paise / 100).toFixed(2);
    throw new AppError(
      ErrorCode.FORBIDDEN,
      committed > 0
        ? `Insufficient balance: calls in progress or not yet charged have used INR ${inr(committed)} of ` +
            `INR ${inr(balance)}; starting a call needs INR ${inr(minimumPaise)} left`
        : `Insufficient balance: starting a call needs at least INR ${inr(minimumPaise)} (one 30-second call)`,
    );
  }

  /** Ends the calls of partners who cannot pay for them; answers how many it asked to end. */
  async sweep(): Promise<number> {
    const price = this.config.CALL_PRICE_PER_MINUTE_PAISE;
    const calls = await overdrawnCalls(this.dataSource.manager, price, HANGUP_RETRY_SECS);
    let asked = 0;
    for (const { id } of calls) {
      if (await this.endCall(id)) asked++;
    }
    return asked;
  }

  /**
   * Claims the call's end (one replica acts on it), then has the voice replica say the farewell or, failing
   * that, the carrier hang up; a failed hang-up is retried next sweep.
   */
  private async endCall(id: string): Promise<boolean> {
    const call = await this.claim(id);
    if (!call) return false;
    if (call.media_stream === 'live' && !call.retry && (await this.farewell(call))) return true;
    this.logger.warn(`call ${call.id}: partner ${call.partner_id} cannot pay for it; hanging up`);
    const direct = this.transports.directOf(call.provider);
    if (direct) {
      // No carrier to hang up: the call (a browser session) ends (and is charged) now.
      await direct.endNow(call.id, EndReasons.insufficientBalance);
      return true;
    }
    try {
      const carrier = this.transports.carrierOf(call.provider);
      await carrier.hangup(carrierCallOfRow(call), EndReasons.insufficientBalance);
      return true;
    } catch (err) {
      this.logger.error(`call ${call.id}: hang-up failed, retrying: ${(err as Error).message}`);
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, 'calls')} SET end_requested_at = NULL WHERE id = $1`,
        [id],
      );
      return false;
    }
  }

  /**
   * Marks the call's end as asked for, atomically: none when it is not in progress or was asked for less
   * than HANGUP_RETRY_SECS ago. `retry` tells whether an earlier ask (this guard's or the agent's) was made.
   */
  private async claim(id: string): Promise<ClaimedCall | undefined> {
    const calls = tableOf(this.dataSource, 'calls');
    const [call] = (await this.dataSource.query(
      `WITH previous AS (
         SELECT id, end_requested_at FROM ${calls} WHERE id = $1 FOR UPDATE
       ), claimed AS (
         UPDATE ${calls} c SET end_requested_at = now(), end_requested_reason = $2
           FROM previous p
          WHERE c.id = p.id AND c.status = 'in_progress'
            AND (c.end_requested_at IS NULL OR c.end_requested_at < now() - make_interval(secs => $3))
          RETURNING c.id, c.partner_id, c.connection_id, c.provider, c.provider_call_id, c.carrier_leg_id,
                    p.end_requested_at IS NOT NULL AS retry)
       SELECT claimed.*, s.media_stream
         FROM claimed LEFT JOIN ${tableOf(this.dataSource, 'call_sessions')} s ON s.call_id = claimed.id`,
      [id, EndReasons.insufficientBalance, HANGUP_RETRY_SECS],
    )) as ClaimedCall[];
    return call;
  }

  /** Asks the voice replica holding the call's media to end it with the farewell; false when none took it. */
  private async farewell(call: ClaimedCall): Promise<boolean> {
    try {
      const { accepted } = await this.rpc.request(
        AddressedSubjects.voice.sessionEnd,
        call.partner_id,
        { callId: call.id, reason: EndReasons.insufficientBalance },
        liveSessionAsk(call.id),
      );
      // Not accepted: the session was ending by itself already, and its own hang-up is on its way.
      this.logger.warn(
        `call ${call.id}: partner ${call.partner_id} cannot pay for it; ` +
          (accepted ? 'the agent says goodbye, then hangs up' : 'it is ending already'),
      );
      return true;
    } catch (err) {
      this.logger.warn(`call ${call.id}: no voice replica took the farewell: ${(err as Error).message}`);
      return false;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
