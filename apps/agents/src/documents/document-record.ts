import { DocumentDto } from '@vap/api';
import { Document } from './entities/document.entity';

export function toDocumentDto(d: Document): DocumentDto {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    type: d.type,
    status: d.status,
    file_size: d.fileSize,
    mime_type: d.mimeType,
    url: d.url,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

/** Where an upload's bytes live: one object per document, under its partner. */
export function documentStorageKey(partnerId: string, documentId: string): string {
  return `documents/${partnerId}/${documentId}`;
}
