import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { CampaignRow, CampaignWait } from './campaign-row';

interface WaitCounts {
  campaign_id: string;
  dialing: number;
  remaining: number;
  window_waits: number;
  cap_waits: number;
  until: Date | null;
}

/**
 * Whether a running campaign is waiting on the contact policy rather than stuck: nothing in flight and every
 * remaining contact deferred by a calling window or a frequency cap. Read with GET, one grouped query per page.
 */
@Injectable()
export class CampaignWaits {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async of(
    rows: CampaignRow[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, CampaignWait>> {
    const running = rows.filter((r) => r.status === 'running').map((r) => r.id);
    const waits = new Map<string, CampaignWait>();
    if (running.length === 0) return waits;
    const counts = (await em.query(
      `SELECT campaign_id,
              count(*) FILTER (WHERE status = 'dialing')::int AS dialing,
              count(*) FILTER (WHERE status IN ('pending', 'retry_wait'))::int AS remaining,
              count(*) FILTER (WHERE status IN ('pending', 'retry_wait') AND wait_reason = $2)::int AS window_waits,
              count(*) FILTER (WHERE status IN ('pending', 'retry_wait') AND wait_reason = $3)::int AS cap_waits,
              min(next_attempt_at) FILTER (WHERE status IN ('pending', 'retry_wait')) AS until
         FROM ${tableOf(em, 'contacts')}
        WHERE campaign_id = ANY($1) AND status IN ('pending', 'retry_wait', 'dialing')
        GROUP BY campaign_id`,
      [running, ErrorCode.OUTSIDE_CALLING_WINDOW, ErrorCode.FREQUENCY_CAP_REACHED],
    )) as WaitCounts[];
    for (const c of counts) {
      if (c.dialing > 0 || c.remaining === 0 || c.window_waits + c.cap_waits < c.remaining) continue;
      waits.set(c.campaign_id, {
        reason: c.window_waits > 0 ? 'waiting_for_window' : 'waiting_for_frequency_cap',
        until: c.until,
      });
    }
    return waits;
  }
}
