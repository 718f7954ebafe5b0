import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  ValidateBy,
  ValidationOptions,
} from 'class-validator';
import {
  BROWSER_REFUSAL_REASONS,
  BROWSER_SESSION_STATUSES,
  BrowserRefusalReason,
  BrowserSessionStatus,
} from '@vap/messages';
import { CallSessionDto } from '../calls/call.dto';
import { CursorQueryDto } from '../pagination';

/** At most this many origins may open a session's WebSocket. */
export const MAX_ALLOWED_ORIGINS = 20;
/** A session's metadata: at most this many keys, and this many bytes as JSON. */
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_BYTES = 8192;

/** Hosts a plain-http origin may name: a page served from the developer's own machine. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An origin exactly as a browser sends it in `Origin`: `scheme://host[:port]`, lower-case, no path, no
 * trailing slash; https, or http for localhost / 127.0.0.1 / [::1] only (any host with NODE_ENV=development,
 * where pages are served over plain http on a LAN address).
 */
export function isAllowedOrigin(
  value: unknown,
  development = process.env.NODE_ENV === 'development',
): boolean {
  if (typeof value !== 'string' || value.length > 255) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.origin !== value) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (development || LOCAL_HOSTS.has(url.hostname));
}

function IsBoundedMetadata(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isBoundedMetadata',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= MAX_METADATA_KEYS &&
          Buffer.byteLength(JSON.stringify(value)) <= MAX_METADATA_BYTES,
      },
    },
    options,
  );
}

export class CreateBrowserSessionDto {
  @ApiProperty({ format: 'uuid', description: 'The agent that talks in the session; a deleted agent is 404' })
  @IsUUID(undefined, { message: 'agent_id must be an agent id (UUID)' })
  agent_id: string;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_ALLOWED_ORIGINS,
    example: ['https://app.example.com'],
    description:
      'The pages allowed to open the session: each `scheme://host[:port]` exactly as the browser sends `Origin` ' +
      '(https; http only for localhost, 127.0.0.1 and [::1], or any host in development). Another origin is ' +
      'refused at connect.',
  })
  @IsArray({ message: 'allowed_origins must be an array of origins' })
  @ArrayMinSize(1, { message: 'allowed_origins must name at least one origin' })
  @ArrayMaxSize(MAX_ALLOWED_ORIGINS, {
    message: `allowed_origins must name at most ${MAX_ALLOWED_ORIGINS} origins`,
  })
  @ValidateBy(
    { name: 'isAllowedOrigin', validator: { validate: (value: unknown) => isAllowedOrigin(value) } },
    {
      each: true,
      message:
        'allowed_origins must be origins such as https://app.example.com (scheme://host[:port], no path; http only for localhost)',
    },
  )
  allowed_origins: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { customer_name: 'Asha' },
    description: 'Pre-session variables, as a call has: usable as {{name}} in the intro message',
  })
  @IsOptional()
  @IsObject({ message: 'variables must be an object' })
  variables?: Record<string, unknown>;

  @ApiPropertyOptional({
    example: 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11',
    description:
      'The customer (sub-tenant) the session is for: one of the account’s customers (else 404 NOT_FOUND), not ' +
      'archived (409 INVALID_STATE)',
  })
  @IsOptional()
  @IsString({ message: 'customer_id must be a customer id' })
  @Matches(/^cus_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: 'customer_id must be a customer id (cus_<uuid>)',
  })
  customer_id?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: `Your key/value data, echoed on the session (at most ${MAX_METADATA_KEYS} keys, ${MAX_METADATA_BYTES} bytes as JSON)`,
  })
  @IsOptional()
  @IsBoundedMetadata({
    message: `metadata must be an object of at most ${MAX_METADATA_KEYS} keys and ${MAX_METADATA_BYTES} bytes`,
  })
  metadata?: Record<string, unknown>;
}

/** A browser session's last refused connection attempt. */
export class BrowserSessionRefusalDto {
  @ApiProperty({
    enum: BROWSER_REFUSAL_REASONS,
    description:
      'token_expired (the connect_url came too late), token_used (it opened the session already), origin_not_allowed ' +
      "(the page's origin is not in allowed_origins), account_restricted (the account may not run sessions now), " +
      'capacity (the voice service was full), session_ended (the session is over)',
  })
  reason: BrowserRefusalReason;

  @ApiProperty({ description: 'What went wrong and what to do about it, for a person' })
  message: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The Origin the attempt came from (at most 255 characters), null when it sent none',
  })
  origin: string | null;

  @ApiProperty({ format: 'date-time' })
  at: string;
}

export class BrowserSessionDto {
  @ApiProperty({ format: 'uuid', description: 'The session id (also its session.completed call_id)' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({
    enum: BROWSER_SESSION_STATUSES,
    description:
      'pending (created, not connected), active (connected), completed, expired (not connected in time), failed',
  })
  status: BrowserSessionStatus;

  @ApiProperty({ type: String, nullable: true, description: 'Why it ended (snake_case), null until it ends' })
  end_reason: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the browser connected',
  })
  started_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  ended_at: string | null;

  @ApiProperty({ format: 'date-time', description: 'A pending session not connected by then expires' })
  expires_at: string;

  @ApiProperty({ type: Number, nullable: true, description: 'Connected seconds, billed per second' })
  duration_secs: number | null;

  @ApiProperty({ description: 'The charge in INR (the same figure as session.credits_used)' })
  credits_used: number;

  @ApiProperty({ type: 'object', additionalProperties: true })
  variables: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true })
  customer_id: string | null;

  @ApiProperty({ type: [String] })
  allowed_origins: string[];

  @ApiProperty({
    type: BrowserSessionRefusalDto,
    nullable: true,
    description:
      "The last connection attempt the session refused (a connection holding the session's own token): " +
      'why, from which origin, when; null when none was refused. The page was told the same reason (see the web client).',
  })
  last_refusal: BrowserSessionRefusalDto | null;

  @ApiProperty({
    type: CallSessionDto,
    description: 'The same session a call has: transcript, tool calls, recording, extraction',
  })
  session: CallSessionDto;
}

export class CreatedBrowserSessionDto extends BrowserSessionDto {
  @ApiProperty({
    description:
      'The token that opens the session, once (shown here only, never again). Valid until expires_at.',
  })
  access_token: string;

  @ApiProperty({
    example: 'wss://voice.example.com/browser/4b0c...?token=...',
    description:
      "The WebSocket URL the browser opens (the token included); give it to your page's voice client",
  })
  connect_url: string;
}

export class BrowserSessionListDto {
  @ApiProperty({ type: [BrowserSessionDto], description: 'Newest first' })
  browser_sessions: BrowserSessionDto[];

  @ApiProperty({ type: String, nullable: true })
  next_cursor: string | null;
}

export class ListBrowserSessionsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID(undefined, { message: 'agent_id must be a UUID' })
  agent_id?: string;

  @ApiPropertyOptional({ enum: BROWSER_SESSION_STATUSES })
  @IsOptional()
  @IsIn(BROWSER_SESSION_STATUSES, { message: `status must be one of ${BROWSER_SESSION_STATUSES.join(', ')}` })
  status?: BrowserSessionStatus;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only sessions created at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'created_after must be an ISO 8601 date-time' })
  created_after?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only sessions created before this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'created_before must be an ISO 8601 date-time' })
  created_before?: string;
}
