/**
 * Document types and limits. Uploads are limited to the types the knowledge base can turn into text;
 * `web_link` documents are created by POST /documents/web-link and crawled when linked to an agent.
 */
export const DOCUMENT_STATUSES = ['uploading', 'ready'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const UPLOAD_DOCUMENT_TYPES = ['pdf', 'txt', 'md', 'html'] as const;
export type UploadDocumentType = (typeof UPLOAD_DOCUMENT_TYPES)[number];

export const WEB_LINK_DOCUMENT_TYPE = 'web_link';
export const DOCUMENT_TYPES = [...UPLOAD_DOCUMENT_TYPES, WEB_LINK_DOCUMENT_TYPE] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The mime_type values each upload type accepts. */
export const DOCUMENT_MIME_TYPES: Record<UploadDocumentType, readonly string[]> = {
  pdf: ['application/pdf'],
  txt: ['text/plain'],
  md: ['text/markdown', 'text/x-markdown', 'text/plain'],
  html: ['text/html'],
};

export const DocumentLimits = {
  /** Largest upload: 20 MB. */
  maxFileBytes: 20 * 1024 * 1024,
  nameMax: 200,
  descriptionMax: 2000,
  urlMax: 2048,
  /** How long an upload_url stays valid. */
  uploadUrlTtlSeconds: 15 * 60,
  searchMax: 200,
} as const;

/** The problem with a type/mime_type pair, or null when the pair is accepted. */
export function mimeTypeProblem(type: unknown, mimeType: unknown): string | null {
  if (typeof mimeType !== 'string') return 'mime_type must be a string';
  const allowed = DOCUMENT_MIME_TYPES[type as UploadDocumentType];
  if (!allowed) return null; // the type itself is reported on its own field
  return allowed.includes(mimeType)
    ? null
    : `mime_type must be ${allowed.join(' or ')} for type ${String(type)}`;
}
