import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';
import { isAllowedOrigin, MAX_ALLOWED_ORIGINS } from './browser-session.dto';

/** A publishable key starts so; the rest is 40 base64url characters. */
export const PUBLISHABLE_KEY_PREFIX = 'pk_live_';
/** An account holds at most this many active publishable keys. */
export const MAX_ACTIVE_PUBLISHABLE_KEYS = 20;
/** A key names at most this many agents. */
export const MAX_PUBLISHABLE_KEY_AGENTS = 20;

/** The limits a new key gets when its creator names none, and the most any key may be given. */
export const PUBLISHABLE_KEY_LIMITS = {
  sessions_per_minute: { default: 20, max: 600 },
  origin_sessions_per_minute: { default: 10, max: 600 },
  max_live_sessions: { default: 10, max: 200 },
  origin_max_live_sessions: { default: 5, max: 200 },
} as const;
export type PublishableKeyLimitName = keyof typeof PUBLISHABLE_KEY_LIMITS;

function limitProperty(name: PublishableKeyLimitName, what: string) {
  const { default: dflt, max } = PUBLISHABLE_KEY_LIMITS[name];
  return ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: max,
    default: dflt,
    description: `${what} (1 to ${max}; ${dflt} when absent)`,
  });
}

export class CreatePublishableKeyDto {
  @ApiProperty({ example: 'Website widget', description: 'A name for people, 1 to 100 characters' })
  @IsString({ message: 'name must be a string' })
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  name: string;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_PUBLISHABLE_KEY_AGENTS,
    description: 'The only agents a session made with the key may talk to (the account’s agents)',
  })
  @IsArray({ message: 'agent_ids must be an array of agent ids' })
  @ArrayMinSize(1, { message: 'agent_ids must name at least one agent' })
  @ArrayMaxSize(MAX_PUBLISHABLE_KEY_AGENTS, {
    message: `agent_ids must name at most ${MAX_PUBLISHABLE_KEY_AGENTS} agents`,
  })
  @IsUUID(undefined, { each: true, message: 'each of agent_ids must be an agent id (UUID)' })
  agent_ids: string[];

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_ALLOWED_ORIGINS,
    example: ['https://www.example.com'],
    description:
      'The only pages that may use the key: each `scheme://host[:port]` exactly as the browser sends `Origin` ' +
      '(https; http only for localhost, 127.0.0.1 and [::1])',
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
        'allowed_origins must be origins such as https://www.example.com (scheme://host[:port], no path; http only for localhost)',
    },
  )
  allowed_origins: string[];

  @limitProperty('sessions_per_minute', 'Sessions the key may create a minute, all its origins together')
  @IsOptional()
  @IsInt({ message: 'sessions_per_minute must be a whole number' })
  @Min(1, { message: 'sessions_per_minute must be at least 1' })
  @Max(PUBLISHABLE_KEY_LIMITS.sessions_per_minute.max, {
    message: `sessions_per_minute must be at most ${PUBLISHABLE_KEY_LIMITS.sessions_per_minute.max}`,
  })
  sessions_per_minute?: number;

  @limitProperty('origin_sessions_per_minute', 'Sessions the key may create a minute from any one origin')
  @IsOptional()
  @IsInt({ message: 'origin_sessions_per_minute must be a whole number' })
  @Min(1, { message: 'origin_sessions_per_minute must be at least 1' })
  @Max(PUBLISHABLE_KEY_LIMITS.origin_sessions_per_minute.max, {
    message: `origin_sessions_per_minute must be at most ${PUBLISHABLE_KEY_LIMITS.origin_sessions_per_minute.max}`,
  })
  origin_sessions_per_minute?: number;

  @limitProperty('max_live_sessions', 'Sessions of the key pending or live at once, all its origins together')
  @IsOptional()
  @IsInt({ message: 'max_live_sessions must be a whole number' })
  @Min(1, { message: 'max_live_sessions must be at least 1' })
  @Max(PUBLISHABLE_KEY_LIMITS.max_live_sessions.max, {
    message: `max_live_sessions must be at most ${PUBLISHABLE_KEY_LIMITS.max_live_sessions.max}`,
  })
  max_live_sessions?: number;

  @limitProperty(
    'origin_max_live_sessions',
    'Sessions of the key pending or live at once from any one origin',
  )
  @IsOptional()
  @IsInt({ message: 'origin_max_live_sessions must be a whole number' })
  @Min(1, { message: 'origin_max_live_sessions must be at least 1' })
  @Max(PUBLISHABLE_KEY_LIMITS.origin_max_live_sessions.max, {
    message: `origin_max_live_sessions must be at most ${PUBLISHABLE_KEY_LIMITS.origin_max_live_sessions.max}`,
  })
  origin_max_live_sessions?: number;
}

export class PublishableKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    example: 'pk_live_x1Yq...',
    description:
      'The key itself. It is public (it goes in your page), so it is shown in full on create; later answers show ' +
      'its first characters only (only a hash of it is kept, as for API keys)',
  })
  prefix: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [String], format: 'uuid' })
  agent_ids: string[];

  @ApiProperty({ type: [String] })
  allowed_origins: string[];

  @ApiProperty()
  sessions_per_minute: number;

  @ApiProperty()
  origin_sessions_per_minute: number;

  @ApiProperty()
  max_live_sessions: number;

  @ApiProperty()
  origin_max_live_sessions: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_used_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revoked_at: string | null;
}

export class CreatedPublishableKeyDto extends PublishableKeyDto {
  @ApiProperty({
    example: 'pk_live_x1Yq0c2h0oX0Yc1d8k3m5n7p9r1t3v5x7z9b1d3f',
    description: 'The publishable key, for the page’s `data-public-key`',
  })
  public_key: string;
}

export class PublishableKeyListDto {
  @ApiProperty({ type: [PublishableKeyDto], description: 'The active keys, oldest first' })
  publishable_keys: PublishableKeyDto[];
}

export class CreateWebSessionDto {
  @ApiProperty({ format: 'uuid', description: 'One of the agents the publishable key names' })
  @IsUUID(undefined, { message: 'agent_id must be an agent id (UUID)' })
  agent_id: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { page: '/pricing' },
    description:
      'Pre-session variables, usable as {{name}} in the intro message (what the page says: untrusted)',
  })
  @IsOptional()
  @IsObject({ message: 'variables must be an object' })
  variables?: Record<string, unknown>;
}

export class WebSessionDto {
  @ApiProperty({ description: 'The browser session (GET /browser-sessions/{id} with a secret key shows it)' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ example: 'pending' })
  status: string;

  @ApiProperty({ format: 'date-time', description: 'The token opens one connection until then' })
  expires_at: string;

  @ApiProperty({
    example: 'wss://voice.example.com/browser/4b0c...?token=...',
    description: 'The WebSocket the page opens, from the calling origin only (its token included, once)',
  })
  connect_url: string;
}
