import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PartnerContext } from '@vap/messages';
import { tableOf } from '@vap/persistence';

interface SnapshotRow {
  id: string;
  status: PartnerContext['status'];
  voice_tier: string;
  concurrency_limit: number;
  balance_paise: string;
  price_per_minute_paise: number | null;
  version: number;
}

/**
 * The partner as the dispatcher places calls for it. Campaign calls start with no partner request behind
 * them, so the latest view is kept here: from each partner command (the gateway's snapshot at that
 * moment) and from the gateway's partner events (balance debits, limit or status changes). Both sources
 * arrive in any order (two event streams, commands in flight), so a view replaces the kept one only when
 * its version is higher: a late, older view never un-suspends a partner.
 */
@Injectable()
export class PartnerSnapshots {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async save(partner: PartnerContext, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.query(
      `INSERT INTO ${tableOf(em, 'partner_snapshots')}
         (id, status, voice_tier, concurrency_limit, balance_paise, version, price_per_minute_paise, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT (id) DO UPDATE SET status = $2, voice_tier = $3, concurrency_limit = $4, balance_paise = $5,
         version = $6, price_per_minute_paise = $7, updated_at = now()
       WHERE ${tableOf(em, 'partner_snapshots')}.version < EXCLUDED.version`,
      [
        partner.id,
        partner.status,
        partner.voiceTier,
        partner.concurrencyLimit,
        partner.balancePaise,
        partner.version ?? 0,
        partner.pricePerMinutePaise ?? null,
      ],
    );
  }

  async get(partnerId: string, em: EntityManager = this.dataSource.manager): Promise<PartnerContext | null> {
    const [row] = (await em.query(`SELECT * FROM ${tableOf(em, 'partner_snapshots')} WHERE id = $1`, [
      partnerId,
    ])) as SnapshotRow[];
    if (!row) return null;
    return {
      id: row.id,
      status: row.status,
      voiceTier: row.voice_tier,
      concurrencyLimit: row.concurrency_limit,
      balancePaise: Number(row.balance_paise),
      pricePerMinutePaise: row.price_per_minute_paise ?? null,
      version: row.version,
    };
  }
}
