import { UploadDocumentType } from '@vap/api';
import { htmlText } from './html-text';
import { pdfText } from './pdf-text';

export type TextFormat = 'pdf' | 'html' | 'text';

export const FORMAT_OF_DOCUMENT_TYPE: Record<UploadDocumentType, TextFormat> = {
  pdf: 'pdf',
  html: 'html',
  txt: 'text',
  md: 'text',
};

/** How to read a fetched page, by its media type; null for types the knowledge base cannot read. */
export function formatOfMediaType(mediaType: string): TextFormat | null {
  if (mediaType === 'application/pdf') return 'pdf';
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'text/plain' || mediaType === 'text/markdown' || mediaType === 'text/x-markdown')
    return 'text';
  return null;
}

/** Decodes text in its declared charset; an unknown charset falls back to UTF-8. */
export function decodeText(bytes: Buffer, charset?: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

export async function extractText(bytes: Buffer, format: TextFormat, charset?: string): Promise<string> {
  switch (format) {
    case 'pdf':
      return pdfText(bytes);
    case 'html':
      return htmlText(decodeText(bytes, charset));
    case 'text':
      return decodeText(bytes, charset);
  }
}
