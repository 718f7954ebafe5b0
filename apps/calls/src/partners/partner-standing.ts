import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError, ErrorCode, PartnerContext } from '@vap/messages';
import { tableOf } from '@vap/persistence';

type Standing = Pick<
  PartnerContext,
  'id' | 'status' | 'version' | 'concurrencyLimit' | 'pricePerMinutePaise' | 'resellerId'
>;

/**
 * Whether a partner may place calls, decided here rather than by the caller: a command's partner snapshot
 * can be stale (a campaign dials with the campaigns service's copy), so the newest of that snapshot and
 * what the gateway's partner events said counts, by the gateway's version of the partner.
 */
@Injectable()
export class PartnerStanding {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Keeps a view of the partner if it is newer than the one kept; a view of the same version fills in a
   * concurrency limit the kept one lacks (rows from before the limit was kept). The gateway's own event
   * (`from: 'gateway'`) also replaces a view of its version a sender told: the gateway owns the partner, so a
   * sender that claimed its newest version with another status (a wrong or forged snapshot, arriving before the
   * event) never pins that status. The rate card is part of the view: every sender carries it, null when the
   * account has none. The reseller of a client is kept once told (an account never changes reseller; an older
   * sender tells none).
   */
  async record(
    partner: Standing,
    em: EntityManager = this.dataSource.manager,
    from: 'gateway' | 'sender' = 'sender',
  ): Promise<void> {
    const table = tableOf(em, 'partner_standing');
    await em.query(
      `INSERT INTO ${table} (partner_id, status, version, concurrency_limit, price_per_minute_paise, reseller_id)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (partner_id) DO UPDATE
         SET status = EXCLUDED.status, version = EXCLUDED.version,
             concurrency_limit = COALESCE(EXCLUDED.concurrency_limit, ${table}.concurrency_limit),
             price_per_minute_paise = EXCLUDED.price_per_minute_paise, updated_at = now()
       WHERE ${table}.version < EXCLUDED.version
          OR (${table}.version = EXCLUDED.version AND ($7 OR ${table}.concurrency_limit IS NULL))`,
      [
        partner.id,
        partner.status,
        partner.version ?? 0,
        partner.concurrencyLimit ?? null,
        partner.pricePerMinutePaise ?? null,
        partner.resellerId ?? null,
        from === 'gateway',
      ],
    );
    // A row already kept learns its reseller whatever the view's version (an account never changes reseller).
    if (partner.resellerId)
      await em.query(
        `UPDATE ${table} SET reseller_id = $2 WHERE partner_id = $1 AND reseller_id IS DISTINCT FROM $2`,
        [partner.id, partner.resellerId],
      );
  }

  /** The account's concurrency limit as last told (null: not known yet). */
  async concurrencyLimit(
    partnerId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<number | null> {
    const [row] = (await em.query(
      `SELECT concurrency_limit FROM ${tableOf(em, 'partner_standing')} WHERE partner_id = $1`,
      [partnerId],
    )) as { concurrency_limit: number | null }[];
    return row?.concurrency_limit ?? null;
  }

  /** 403 FORBIDDEN unless the newest known view of the partner is approved. */
  async assertMayCall(partner: PartnerContext): Promise<void> {
    await this.record(partner);
    const [row] = (await this.dataSource.query(
      `SELECT status FROM ${tableOf(this.dataSource, 'partner_standing')} WHERE partner_id = $1`,
      [partner.id],
    )) as { status: PartnerContext['status'] }[];
    const status = row?.status ?? partner.status;
    if (status === 'suspended') throw new AppError(ErrorCode.FORBIDDEN, 'This account is suspended');
    if (status !== 'approved') throw new AppError(ErrorCode.FORBIDDEN, 'This account is not yet approved');
  }
}

/** The account's rate card a minute in the partner's newest known view (null: the platform's price). */
export async function standingPricePerMinutePaise(
  em: EntityManager,
  partnerId: string,
): Promise<number | null> {
  const [row] = (await em.query(
    `SELECT price_per_minute_paise FROM ${tableOf(em, 'partner_standing')} WHERE partner_id = $1`,
    [partnerId],
  )) as { price_per_minute_paise: number | null }[];
  return row?.price_per_minute_paise ?? null;
}
