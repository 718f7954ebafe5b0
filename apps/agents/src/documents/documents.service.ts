import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import {
  CreateDocumentDto,
  CreateWebLinkDocumentDto,
  DocumentDto,
  DocumentLimits,
  DocumentListDto,
  DocumentMessageDto,
  DocumentUploadDto,
  ListDocumentsQueryDto,
  mimeTypeProblem,
  UPLOAD_DOCUMENT_TYPES,
  WEB_LINK_DOCUMENT_TYPE,
} from '@vap/api';
import { AppError, DomainEvents, isUuid } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { keysetPage, tableOf } from '@vap/persistence';
import { BLOB_STORAGE, BlobStorage } from '@vap/storage';
import { invalidFields } from '../common/invalid-fields';
import { KbJobsRepository } from '../knowledge/jobs/kb-jobs.repository';
import { documentStorageKey, toDocumentDto } from './document-record';
import { Document } from './entities/document.entity';

/**
 * Knowledge-base documents of a partner. Uploads follow the presigned-URL flow: create (status uploading,
 * with a signed upload_url), the client PUTs the bytes to blob storage, confirm checks they arrived.
 */
@Injectable()
export class DocumentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
    private readonly outbox: OutboxService,
    private readonly jobs: KbJobsRepository,
  ) {}

  async create(partnerId: string, input: CreateDocumentDto): Promise<DocumentUploadDto> {
    this.checkUpload(input);
    const id = randomUUID();
    const key = documentStorageKey(partnerId, id);
    const upload = await this.storage.presignUpload(key, {
      contentType: input.mime_type,
      contentLength: input.file_size,
      expiresInSeconds: DocumentLimits.uploadUrlTtlSeconds,
    });
    return this.dataSource.transaction(async (em) => {
      const document = em.create(Document, {
        id,
        partnerId,
        name: input.name,
        description: input.description ?? '',
        type: input.type,
        status: 'uploading',
        fileSize: input.file_size,
        mimeType: input.mime_type,
        url: null,
        storageKey: key,
        uploadExpiresAt: upload.expiresAt,
        confirmedAt: null,
        deletedAt: null,
      });
      await em.save(document);
      const dto = toDocumentDto(document);
      await this.outbox.record(em, DomainEvents.documentCreated, partnerId, dto);
      return {
        ...dto,
        upload_url: upload.url,
        upload_method: 'PUT',
        upload_headers: upload.headers,
        upload_expires_at: upload.expiresAt.toISOString(),
      };
    });
  }

  /** The gateway validated the body already; this guards the command against other callers. */
  private checkUpload(input: CreateDocumentDto): void {
    const problems = [];
    if (!(UPLOAD_DOCUMENT_TYPES as readonly string[]).includes(input.type)) {
      problems.push({ field: 'type', message: `type must be one of ${UPLOAD_DOCUMENT_TYPES.join(', ')}` });
    }
    const mime = mimeTypeProblem(input.type, input.mime_type);
    if (mime) problems.push({ field: 'mime_type', message: mime });
    if (
      !Number.isInteger(input.file_size) ||
      input.file_size < 1 ||
      input.file_size > DocumentLimits.maxFileBytes
    ) {
      problems.push({
        field: 'file_size',
        message: `file_size must be 1 to ${DocumentLimits.maxFileBytes} bytes`,
      });
    }
    if (problems.length) throw invalidFields(problems);
  }

  async createWebLink(partnerId: string, input: CreateWebLinkDocumentDto): Promise<DocumentDto> {
    const protocol = URL.canParse(input.url) ? new URL(input.url).protocol : '';
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw invalidFields([{ field: 'url', message: 'url must be an http or https URL' }]);
    }
    return this.dataSource.transaction(async (em) => {
      const document = em.create(Document, {
        id: randomUUID(),
        partnerId,
        name: input.name,
        description: input.description ?? '',
        type: WEB_LINK_DOCUMENT_TYPE,
        // Nothing to upload: the page is crawled when the document is linked to an agent.
        status: 'ready',
        fileSize: 0,
        mimeType: 'text/html',
        url: input.url,
        storageKey: null,
        uploadExpiresAt: null,
        confirmedAt: null,
        deletedAt: null,
      });
      await em.save(document);
      const dto = toDocumentDto(document);
      await this.outbox.record(em, DomainEvents.documentCreated, partnerId, dto);
      return dto;
    });
  }

  async confirm(partnerId: string, id: string): Promise<DocumentDto> {
    return this.dataSource.transaction(async (em) => {
      const document = await this.lockLive(em, partnerId, id);
      if (document.status === 'ready') throw AppError.conflict('Document is already confirmed');
      const stored = await this.storage.head(document.storageKey!);
      if (!stored) {
        const expired = document.uploadExpiresAt !== null && document.uploadExpiresAt.getTime() < Date.now();
        throw invalidFields([
          {
            field: 'id',
            message: expired
              ? 'the file was not uploaded and the upload_url has expired; create the document again'
              : 'the file has not been uploaded yet: PUT it to upload_url first',
          },
        ]);
      }
      if (stored.size !== document.fileSize) {
        throw invalidFields([
          {
            field: 'file_size',
            message: `the uploaded file has ${stored.size} bytes, not the declared ${document.fileSize}`,
          },
        ]);
      }
      document.status = 'ready';
      document.confirmedAt = new Date();
      document.uploadExpiresAt = null;
      await em.save(document);
      const dto = toDocumentDto(document);
      await this.outbox.record(em, DomainEvents.documentReady, partnerId, dto);
      return dto;
    });
  }

  async get(partnerId: string, id: string): Promise<DocumentDto> {
    const document = isUuid(id)
      ? await this.dataSource.getRepository(Document).findOneBy({ id, partnerId, deletedAt: IsNull() })
      : null;
    if (!document) throw AppError.notFound('Document');
    return toDocumentDto(document);
  }

  async list(partnerId: string, query: ListDocumentsQueryDto): Promise<DocumentListDto> {
    const qb = this.dataSource
      .getRepository(Document)
      .createQueryBuilder('d')
      .where('d.partner_id = :partnerId', { partnerId })
      .andWhere('d.deleted_at IS NULL');
    if (query.status !== undefined) qb.andWhere('d.status = :status', { status: query.status });
    if (query.type !== undefined) qb.andWhere('d.type = :type', { type: query.type });
    if (query.search !== undefined) {
      qb.andWhere(`d.name ILIKE :search ESCAPE '\\'`, {
        search: `%${query.search.replace(/[\\%_]/g, '\\$&')}%`,
      });
    }
    const page = await keysetPage(qb, query, { idKind: 'uuid' });
    return { documents: page.rows.map(toDocumentDto), next_cursor: page.nextCursor };
  }

  /**
   * Deletes the document at once for every route and every agent's search; its file, links and chunks are
   * removed by a background job.
   */
  async remove(partnerId: string, id: string): Promise<DocumentMessageDto> {
    return this.dataSource.transaction(async (em) => {
      const document = await this.lockLive(em, partnerId, id);
      document.deletedAt = new Date();
      await em.save(document);
      await em.query(
        `UPDATE ${tableOf(em, 'agent_documents')} SET unlinked_at = now(), updated_at = now()
         WHERE document_id = $1 AND unlinked_at IS NULL`,
        [document.id],
      );
      // While its upload URL is valid a client could still PUT the file: purge only after that, so that
      // no file is left behind.
      const uploadOpen =
        document.uploadExpiresAt && document.uploadExpiresAt > new Date()
          ? document.uploadExpiresAt
          : undefined;
      await this.jobs.enqueue(em, {
        kind: 'purge_document',
        partnerId,
        documentId: document.id,
        runAt: uploadOpen,
      });
      await this.outbox.record(em, DomainEvents.documentDeleted, partnerId, toDocumentDto(document));
      return {
        message: 'Document deleted; it is removed from the knowledge base of every agent it was linked to',
      };
    });
  }

  /** One live document of the partner, locked; 404 for unknown, foreign or deleted ones. */
  private async lockLive(em: EntityManager, partnerId: string, id: string): Promise<Document> {
    const document = isUuid(id)
      ? await em.findOne(Document, {
          where: { id, partnerId, deletedAt: IsNull() },
          lock: { mode: 'pessimistic_write' },
        })
      : null;
    if (!document) throw AppError.notFound('Document');
    return document;
  }
}
