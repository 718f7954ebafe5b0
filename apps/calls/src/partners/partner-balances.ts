import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PartnerDto } from '@vap/api';
import { PartnerContext } from '@vap/messages';
import { tableOf } from '@vap/persistence';

/**
 * The partners' balances as the gateway last reported them. The gateway owns the balance and records
 * events.partner.updated through its outbox on every change (operator top-up, call charge), so this
 * projection follows within the event's delivery; a partner's start command seeds it when no event was
 * seen yet. An event older than what is stored (the gateway's updated_at) changes nothing.
 */
@Injectable()
export class PartnerBalances {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A command's snapshot, only where no event has been seen (events carry the ordering; snapshots do not). */
  async seed(partner: PartnerContext): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO ${tableOf(this.dataSource, 'partner_balances')} (partner_id, balance_paise, as_of, version)
       VALUES ($1, $2, now(), $3)
       ON CONFLICT (partner_id) DO NOTHING`,
      [partner.id, partner.balancePaise, partner.version ?? 0],
    );
  }

  /** A partner event's balance (PartnerEventsConsumer), in the event's inbox transaction. */
  async record(em: EntityManager, partner: PartnerDto): Promise<void> {
    await em.query(
      `INSERT INTO ${tableOf(em, 'partner_balances')} (partner_id, balance_paise, as_of, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (partner_id) DO UPDATE SET balance_paise = $2, as_of = $3, version = $4, updated_at = now()
         WHERE ${tableOf(em, 'partner_balances')}.as_of <= $3`,
      [partner.id, Math.round(partner.balance_inr * 100), partner.updated_at, partner.version ?? 0],
    );
  }
}

/**
 * The newer of a command's snapshot and the projection's balance, by the gateway's version of the partner: a
 * snapshot read just before a charge is older than a projection that has already seen the charge.
 */
export function newerBalance(
  projection: { balancePaise: number; version: number } | undefined,
  snapshot: PartnerContext,
): number {
  return projection && projection.version > (snapshot.version ?? 0)
    ? projection.balancePaise
    : snapshot.balancePaise;
}
