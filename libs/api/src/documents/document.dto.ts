import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { CursorQueryDto, NextCursor } from '../pagination';
import {
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  DocumentLimits,
  DocumentStatus,
  DocumentType,
  mimeTypeProblem,
  UPLOAD_DOCUMENT_TYPES,
  UploadDocumentType,
} from './document-limits';
import { OptionalOneOf, trimString } from '../validation';

const MB = DocumentLimits.maxFileBytes / (1024 * 1024);

function IsMimeTypeOfType() {
  return ValidateBy({
    name: 'isMimeTypeOfType',
    validator: {
      validate: (value, args) => mimeTypeProblem((args?.object as { type?: unknown }).type, value) === null,
      defaultMessage: (args) =>
        mimeTypeProblem((args?.object as { type?: unknown }).type, args?.value) ?? 'mime_type is invalid',
    },
  });
}

export class CreateDocumentDto {
  @ApiProperty({ minLength: 1, maxLength: DocumentLimits.nameMax, example: 'Refund policy' })
  @Transform(trimString)
  @IsString({ message: 'name must be a string' })
  @Length(1, DocumentLimits.nameMax, { message: `name must be 1 to ${DocumentLimits.nameMax} characters` })
  name: string;

  @ApiPropertyOptional({ maxLength: DocumentLimits.descriptionMax, default: '' })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(DocumentLimits.descriptionMax, {
    message: `description must be at most ${DocumentLimits.descriptionMax} characters`,
  })
  description?: string;

  @ApiProperty({
    enum: UPLOAD_DOCUMENT_TYPES,
    description: 'File type; only types the knowledge base can index are accepted',
  })
  @IsIn(UPLOAD_DOCUMENT_TYPES as unknown as string[], {
    message: `type must be one of ${UPLOAD_DOCUMENT_TYPES.join(', ')}`,
  })
  type: UploadDocumentType;

  @ApiProperty({
    minimum: 1,
    maximum: DocumentLimits.maxFileBytes,
    description: `Exact size in bytes of the file you will upload; at most ${DocumentLimits.maxFileBytes} (${MB} MB)`,
    example: 48213,
  })
  @IsInt({ message: 'file_size must be an integer number of bytes' })
  @Min(1, { message: 'file_size must be at least 1 byte' })
  @Max(DocumentLimits.maxFileBytes, {
    message: `file_size must be at most ${DocumentLimits.maxFileBytes} bytes (${MB} MB)`,
  })
  file_size: number;

  @ApiProperty({
    example: 'application/pdf',
    description:
      'pdf: application/pdf; txt: text/plain; md: text/markdown, text/x-markdown or text/plain; html: text/html',
  })
  @IsMimeTypeOfType()
  mime_type: string;
}

export class CreateWebLinkDocumentDto {
  @ApiProperty({ minLength: 1, maxLength: DocumentLimits.nameMax, example: 'Pricing page' })
  @Transform(trimString)
  @IsString({ message: 'name must be a string' })
  @Length(1, DocumentLimits.nameMax, { message: `name must be 1 to ${DocumentLimits.nameMax} characters` })
  name: string;

  @ApiProperty({
    maxLength: DocumentLimits.urlMax,
    example: 'https://example.com/pricing',
    description:
      'http or https URL of a public page (HTML, plain text or PDF); crawled when linked to an agent',
  })
  @IsString({ message: 'url must be a string' })
  @MaxLength(DocumentLimits.urlMax, { message: `url must be at most ${DocumentLimits.urlMax} characters` })
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false, allow_underscores: true },
    { message: 'url must be an http or https URL' },
  )
  url: string;

  @ApiPropertyOptional({ maxLength: DocumentLimits.descriptionMax, default: '' })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(DocumentLimits.descriptionMax, {
    message: `description must be at most ${DocumentLimits.descriptionMax} characters`,
  })
  description?: string;
}

export class ListDocumentsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES })
  @IsOptional()
  @IsIn(DOCUMENT_STATUSES as unknown as string[], { message: 'status must be uploading or ready' })
  status?: DocumentStatus;

  @OptionalOneOf(DOCUMENT_TYPES)
  type?: DocumentType;

  @ApiPropertyOptional({
    maxLength: DocumentLimits.searchMax,
    description: 'Case-insensitive substring of name',
  })
  @IsOptional()
  @IsString()
  @Length(1, DocumentLimits.searchMax)
  @Matches(/\S/, { message: 'search must not be blank' })
  search?: string;
}

export class DocumentDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Empty string when none was given' })
  description: string;

  @ApiProperty({ enum: DOCUMENT_TYPES })
  type: DocumentType;

  @ApiProperty({
    enum: DOCUMENT_STATUSES,
    description: 'uploading until POST /documents/{id}/confirm succeeds; web links are ready at once',
  })
  status: DocumentStatus;

  @ApiProperty({ description: 'Bytes; 0 for web links (their size is known only when crawled)' })
  file_size: number;

  @ApiProperty({ example: 'application/pdf', description: 'text/html for web links' })
  mime_type: string;

  @ApiProperty({ type: String, nullable: true, description: 'The page of a web link; null for uploads' })
  url: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class DocumentUploadDto extends DocumentDto {
  @ApiProperty({
    description:
      'Signed URL to PUT the file to, without the Authorization header: send exactly file_size bytes with ' +
      'the Content-Type in upload_headers. Expires at upload_expires_at; then call POST /documents/{id}/confirm.',
    example: 'https://api.example.com/api/v2/uploads/eyJtIjoiUFVUIi4uLn0.q9Zc...',
  })
  upload_url: string;

  @ApiProperty({ enum: ['PUT'] })
  upload_method: 'PUT';

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'Content-Type': 'application/pdf' },
    description: 'Headers the upload request must carry',
  })
  upload_headers: Record<string, string>;

  @ApiProperty({ format: 'date-time' })
  upload_expires_at: string;
}

export class DocumentListDto {
  @ApiProperty({ type: [DocumentDto] })
  documents: DocumentDto[];

  @NextCursor()
  next_cursor: string | null;
}

/** A confirmation message (deletions, unlinking). */
export class DocumentMessageDto {
  @ApiProperty({ example: 'Document deleted' })
  message: string;
}
