import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  DocumentStatus,
  DocumentType,
} from '../documents/document-limits';
import {
  KB_INDEX_STATUSES,
  KB_THRESHOLDS,
  KbThreshold,
  KnowledgeSearchHit,
  KnowledgeSearchReply,
  KB_RESULT_PLACEHOLDERS,
  KB_THRESHOLD_MIN_SCORE,
  KbIndexStatus,
  KnowledgeLimits,
} from '@vap/messages';
import { trimString } from '../validation';

export class LinkAgentDocumentsDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'One document to link (or use document_ids)' })
  @ValidateIf((o: LinkAgentDocumentsDto) => o.document_id !== undefined || o.document_ids === undefined)
  @IsUUID(undefined, {
    message: 'document_id must be a document id (UUID); send document_id or document_ids',
  })
  document_id?: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: KnowledgeLimits.linkBatchMax,
    description: 'Several documents to link at once',
  })
  @IsOptional()
  @IsArray({ message: 'document_ids must be an array of document ids' })
  @ArrayMinSize(1, { message: 'document_ids must not be empty' })
  @ArrayMaxSize(KnowledgeLimits.linkBatchMax, {
    message: `document_ids must hold at most ${KnowledgeLimits.linkBatchMax} ids`,
  })
  @IsUUID(undefined, { each: true, message: 'document_ids must hold document ids (UUIDs)' })
  document_ids?: string[];
}

/** A document as linked to one agent, with the state of its indexing for that agent. */
export class AgentKnowledgeDocumentDto {
  @ApiProperty({ format: 'uuid' })
  document_id: string;

  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: DOCUMENT_TYPES })
  type: DocumentType;

  @ApiProperty({ enum: DOCUMENT_STATUSES })
  status: DocumentStatus;

  @ApiProperty({ type: String, nullable: true })
  url: string | null;

  @ApiProperty({
    enum: KB_INDEX_STATUSES,
    description:
      'pending: waiting for a worker (index_error then tells why the previous attempt failed); indexing: ' +
      'being extracted and indexed; indexed: searchable; failed: given up, see index_error',
  })
  index_status: KbIndexStatus;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last indexing attempt failed' })
  index_error: string | null;

  @ApiProperty({ description: 'Searchable chunks of this document for this agent' })
  chunk_count: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  indexed_at: string | null;

  @ApiProperty({ format: 'date-time' })
  linked_at: string;
}

export class AgentKnowledgeDocumentListDto {
  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ type: [AgentKnowledgeDocumentDto] })
  documents: AgentKnowledgeDocumentDto[];
}

export class KnowledgeSearchDto {
  @ApiProperty({
    minLength: 1,
    maxLength: KnowledgeLimits.queryMax,
    example: 'how long do refunds take',
    description:
      'Free text in web-search syntax: words are alternatives (chunks with more of them rank higher), ' +
      '"quoted phrases" must appear as phrases, -word excludes',
  })
  @Transform(trimString)
  @IsString({ message: 'query must be a string' })
  @Length(1, KnowledgeLimits.queryMax, {
    message: `query must be 1 to ${KnowledgeLimits.queryMax} characters`,
  })
  @Matches(/\S/, { message: 'query must not be blank' })
  query: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: KnowledgeLimits.maxResults,
    default: KnowledgeLimits.defaultResults,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(KnowledgeLimits.maxResults, { message: `limit must be at most ${KnowledgeLimits.maxResults}` })
  limit?: number;
}

const PLACEHOLDER_DOC = Object.entries(KB_RESULT_PLACEHOLDERS)
  .map(([k, v]) => `{${k}}: ${v}`)
  .join('; ');
const THRESHOLD_DOC = Object.entries(KB_THRESHOLD_MIN_SCORE)
  .map(([k, v]) => `${k} ≥ ${v}`)
  .join(', ');

export class KnowledgeSearchResultDto implements KnowledgeSearchHit {
  @ApiProperty({ format: 'uuid' })
  chunk_id: string;

  @ApiProperty({ format: 'uuid' })
  document_id: string;

  @ApiProperty()
  document_name: string;

  @ApiProperty({ description: 'Position of the chunk in its document, from 0' })
  chunk_index: number;

  @ApiProperty({ description: 'The chunk text' })
  content: string;

  @ApiProperty({
    description: 'Relevance in [0, 1): mean of query-word coverage and ts_rank_cd density (see min_score)',
  })
  score: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "The document's summary; present only when the agent's kb_include_summaries is true",
  })
  summary?: string | null;

  @ApiProperty({
    description: `The result rendered with the agent's kb_result_format. Placeholders: ${PLACEHOLDER_DOC}`,
  })
  formatted: string;
}

export class KnowledgeSearchResponseDto implements KnowledgeSearchReply {
  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty()
  query: string;

  @ApiProperty({ enum: KB_THRESHOLDS, description: "The agent's kb_threshold (null counts as medium)" })
  threshold: KbThreshold;

  @ApiProperty({ description: `Smallest score kept for the threshold: ${THRESHOLD_DOC}` })
  min_score: number;

  @ApiProperty({ type: [KnowledgeSearchResultDto], description: 'Best first' })
  results: KnowledgeSearchResultDto[];

  @ApiProperty({
    description: 'The formatted results joined by blank lines, ready to hand to the voice agent',
  })
  context: string;
}
