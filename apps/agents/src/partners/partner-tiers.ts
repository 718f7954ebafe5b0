import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid, PartnerContext } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { voiceTierOf } from '../common/caller';

/** A partner's voice tier as of one version of the partner. */
export interface PartnerTier {
  partnerId: string;
  voiceTier: string;
  version: number;
}

/**
 * Each partner's voice tier, kept from the gateway's partner events. Commands from the gateway carry the
 * partner's snapshot, but voice asks for a call's speech plan as a system caller with the partner id alone;
 * without this copy every such call would run on the base tier. The two event streams (created, updated) are
 * consumed apart, so a view replaces the kept one only when its version is higher.
 */
@Injectable()
export class PartnerTiers {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async save(tier: PartnerTier, em: EntityManager = this.dataSource.manager): Promise<void> {
    const table = tableOf(em, 'partner_tiers');
    await em.query(
      `INSERT INTO ${table} (partner_id, voice_tier, version, updated_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (partner_id) DO UPDATE SET voice_tier = $2, version = $3, updated_at = now()
       WHERE ${table}.version < EXCLUDED.version`,
      [tier.partnerId, tier.voiceTier, tier.version],
    );
  }

  async get(partnerId: string, em: EntityManager = this.dataSource.manager): Promise<PartnerTier | null> {
    if (!isUuid(partnerId)) return null;
    const [row] = (await em.query(
      `SELECT voice_tier, version FROM ${tableOf(em, 'partner_tiers')} WHERE partner_id = $1`,
      [partnerId],
    )) as { voice_tier: string; version: number }[];
    return row ? { partnerId, voiceTier: row.voice_tier, version: row.version } : null;
  }

  /**
   * The tier a command runs with: the caller's snapshot when it carries one (the gateway's view at the
   * request), else the tier the partner events last gave, else the base tier, never more.
   */
  async voiceTierFor(partnerId: string, caller?: PartnerContext): Promise<string> {
    if (caller) return voiceTierOf(caller);
    return (await this.get(partnerId))?.voiceTier ?? voiceTierOf(undefined);
  }
}
