import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError, ErrorCode, PartnerContext } from '@vap/contracts';
import { tableOf } from '@vap/persistence';

type Standing = Pick<PartnerContext, 'id' | 'status' | 'version'>;

/**
 * Whether a partner may place calls, decided here rather than by the caller: a command's partner snapshot
 * can be stale (a campaign dials with the campaigns service's copy), so the newest of that snapshot and
 * what the gateway's partner events said counts, by the gateway's version of the partner.
 */
@Injectable()
export class PartnerStanding {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Keeps a view of the partner if it is newer than the one kept. */
  async record(partner: Standing, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.query(
      `INSERT INTO ${tableOf(em, 'partner_standing')} (partner_id, status, version) VALUES ($1, $2, $3)
       ON CONFLICT (partner_id) DO UPDATE SET status = $2, version = $3, updated_at = now()
       WHERE ${tableOf(em, 'partner_standing')}.version < EXCLUDED.version`,
      [partner.id, partner.status, partner.version ?? 0],
    );
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
