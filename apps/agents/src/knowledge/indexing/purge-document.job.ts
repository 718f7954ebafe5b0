import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { BLOB_STORAGE, BlobStorage } from '@vap/storage';
import { tableOf } from '@vap/persistence';
import { Document } from '../../documents/entities/document.entity';
import { ClaimedKbJob, KbJobHandler } from '../jobs/kb-job';

/** Removes a deleted document's file, then its row; the cascade takes its links and chunks. */
@Injectable()
export class PurgeDocumentJob implements KbJobHandler {
  readonly kind = 'purge_document' as const;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
  ) {}

  async run(job: ClaimedKbJob, finish: (em: EntityManager) => Promise<void>): Promise<void> {
    const document = await this.dataSource.getRepository(Document).findOneBy({ id: job.documentId! });
    // Deleting an absent object is not an error, so a retry after a crash here is harmless.
    if (document?.deletedAt && document.storageKey) await this.storage.delete(document.storageKey);
    await this.dataSource.transaction(async (em) => {
      await finish(em);
      await em.query(`DELETE FROM ${tableOf(em, 'documents')} WHERE id = $1 AND deleted_at IS NOT NULL`, [
        job.documentId,
      ]);
    });
  }
}
