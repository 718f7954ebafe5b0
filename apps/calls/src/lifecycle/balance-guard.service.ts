import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode, PartnerContext } from '@vap/contracts';
import { tableOf } from '@vap/persistence';
import { PeriodicTask } from '@vap/runtime';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { CallsConfig } from '../config/calls.config';
import { committedCostPaise, overdrawnCalls } from './balance-exposure';
import { EndReasons } from './end-reasons';
import { PartnerBalances } from '../partners/partner-balances';

interface ClaimedCall {
  id: string;
  partner_id: string;
  connection_id: string;
  provider: string;
  provider_call_id: string | null;
  carrier_leg_id: string | null;
}

/** A hang-up the carrier has not acted on after this long is asked for again. */
const HANGUP_RETRY_SECS = 10;

/**
 * Keeps calls within what partners can pay. The balance is checked when a call starts, but calls run on
 * after that: every BALANCE_GUARD_INTERVAL_MS each replica looks for partners whose projected balance
 * (PartnerBalances) no longer covers their calls in progress plus their calls not yet charged, and ends
 * those calls gracefully through their carrier (the agent's farewell where the platform speaks, then
 * the hang-up), with end_call_reason insufficient_balance. New calls are refused meanwhile.
 */
@Injectable()
export class BalanceGuard implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BalanceGuard.name);
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly carriers: CarrierRegistry,
    private readonly balances: PartnerBalances,
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
    const balance = await this.balances.freshest(partner);
    const price = this.config.CALL_PRICE_PER_MINUTE_PAISE;
    const committed = await committedCostPaise(this.dataSource.manager, partner.id, price);
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

  /** Ends the calls of partners who cannot pay for them; answers how many hang-ups it asked for. */
  async sweep(): Promise<number> {
    const price = this.config.CALL_PRICE_PER_MINUTE_PAISE;
    const calls = await overdrawnCalls(this.dataSource.manager, price, HANGUP_RETRY_SECS);
    let asked = 0;
    for (const { id } of calls) {
      if (await this.endCall(id)) asked++;
    }
    return asked;
  }

  /** Claims the hang-up (one replica asks the carrier), then asks; a failed ask is retried next sweep. */
  private async endCall(id: string): Promise<boolean> {
    const [call] = (await this.dataSource.query(
      `WITH claimed AS (
         UPDATE ${tableOf(this.dataSource, 'calls')} SET end_requested_at = now(), end_requested_reason = $2
          WHERE id = $1 AND status = 'in_progress'
            AND (end_requested_at IS NULL OR end_requested_at < now() - make_interval(secs => $3))
          RETURNING id, partner_id, connection_id, provider, provider_call_id, carrier_leg_id)
       SELECT * FROM claimed`,
      [id, EndReasons.insufficientBalance, HANGUP_RETRY_SECS],
    )) as ClaimedCall[];
    if (!call) return false;
    this.logger.warn(`call ${call.id}: partner ${call.partner_id} cannot pay for it; hanging up`);
    try {
      await this.carriers.get(call.provider).hangup(
        {
          id: call.id,
          partnerId: call.partner_id,
          connectionId: call.connection_id,
          providerCallId: call.provider_call_id,
          carrierLegId: call.carrier_leg_id,
        },
        EndReasons.insufficientBalance,
      );
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

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
