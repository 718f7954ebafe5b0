import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { ClaimedKbJob, KbJobHandler } from '../jobs/kb-job';

/** Removes an unlinked link and, through the cascade, its chunks. */
@Injectable()
export class PurgeLinkJob implements KbJobHandler {
  readonly kind = 'purge_link' as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async run(job: ClaimedKbJob, finish: (em: EntityManager) => Promise<void>): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await finish(em);
      await em.query(
        `DELETE FROM ${tableOf(em, 'agent_documents')} WHERE id = $1 AND unlinked_at IS NOT NULL`,
        [job.linkId],
      );
    });
  }
}
