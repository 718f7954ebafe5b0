import { Inject, Injectable } from '@nestjs/common';
import { DocumentLimits, UploadDocumentType, WEB_LINK_DOCUMENT_TYPE } from '@vap/api';
import { BLOB_STORAGE, BlobStorage } from '@vap/storage';
import { Document } from '../../documents/entities/document.entity';
import { PermanentJobError } from '../jobs/kb-job';
import { extractText, FORMAT_OF_DOCUMENT_TYPE } from './extraction/extract-text';
import { normalizeText } from './text/normalize-text';
import { FetchOrigin, WebPageFetcher } from './web-page-fetcher';

/** The plain text of a document: the uploaded file from blob storage, or the crawled page of a web link. */
@Injectable()
export class DocumentTextService {
  constructor(
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
    private readonly pages: WebPageFetcher,
  ) {}

  /** `origin`: the partner and agent a web link's page is fetched for (its integration log entry). */
  async textOf(document: Document, origin: FetchOrigin): Promise<string> {
    const raw =
      document.type === WEB_LINK_DOCUMENT_TYPE
        ? await this.fromWeb(document, origin)
        : await this.fromUpload(document);
    const text = normalizeText(raw);
    if (!text) throw new PermanentJobError('no text found in the document (a scanned PDF holds only images)');
    return text;
  }

  private async fromWeb(document: Document, origin: FetchOrigin): Promise<string> {
    const page = await this.pages.fetch(document.url!, origin);
    return extractText(page.bytes, page.format, page.charset);
  }

  private async fromUpload(document: Document): Promise<string> {
    const bytes = await this.storage.read(document.storageKey!, DocumentLimits.maxFileBytes);
    if (!bytes) throw new PermanentJobError('the uploaded file is missing from storage');
    return extractText(bytes, FORMAT_OF_DOCUMENT_TYPE[document.type as UploadDocumentType]);
  }
}
