import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { E164_EXAMPLE, E164_PATTERN } from '../validation';
import { CONNECTION_STATUSES, ConnectionStatus } from './telephony-credentials.dto';

export const TELEPHONY_CONNECTION_ID_EXAMPLE = 'tcn_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11';

/** The connections /telephony-connections serves: the carriers calls run on (reseller-link is a data link). */
export const CARRIER_CONNECTION_PROVIDERS = ['sandbox', 'carrier_a', 'carrier_b'] as const;
export type CarrierConnectionProvider = (typeof CARRIER_CONNECTION_PROVIDERS)[number];

/** Why a REST call to the carrier or a connection test failed. */
export const CONNECTION_FAILURE_REASONS = [
  'credentials_rejected',
  'account_not_found',
  'carrier_error',
  'unreachable',
] as const;
export type ConnectionFailureReason = (typeof CONNECTION_FAILURE_REASONS)[number];

/** The most numbers of a connection shown inline; the rest are listed by GET /phone-numbers. */
export const CONNECTION_NUMBERS_SHOWN = 50;

/**
 * PATCH /telephony-connections/{id}: each field optional, at least one present. auth_token rotates the
 * secret (the account id stays; change it with PUT /config/telephony/<carrier>).
 */
export class UpdateTelephonyConnectionDto {
  @ApiPropertyOptional({
    maxLength: 500,
    writeOnly: true,
    example: 'your-new-auth-token',
    description: 'The carrier account’s new auth token. Stored encrypted; never returned.',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString({ message: 'auth_token must be a string' })
  @IsNotEmpty({ message: 'auth_token must not be empty' })
  @MaxLength(500, { message: 'auth_token must be at most 500 characters' })
  auth_token?: string;

  @ApiPropertyOptional({
    example: E164_EXAMPLE,
    description:
      'The connection’s default from-number: a number of the account on this connection, or one the account does not have yet (it becomes a number of this connection). A number of another connection is 409 CONFLICT.',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString({ message: 'from_number must be a string' })
  @Matches(E164_PATTERN, { message: 'from_number must be an E.164 number such as +919876543210' })
  from_number?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'Production carrier_b' })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString({ message: 'label must be a string or null' })
  @MaxLength(100, { message: 'label must be at most 100 characters' })
  label?: string | null;
}

export class ConnectionNumberDto {
  @ApiProperty({ example: 'pn_0d7f4c1f-2b11-4a8e-9a55-3f0c6a0e6d0b' })
  id: string;

  @ApiProperty({ example: E164_EXAMPLE })
  number: string;

  @ApiProperty({ enum: ['active', 'inactive'] })
  status: 'active' | 'inactive';

  @ApiProperty({ type: String, nullable: true })
  label: string | null;

  @ApiProperty({ description: 'Whether it is the connection’s from_number' })
  is_from_number: boolean;
}

export class ConnectionSuccessDto {
  @ApiProperty({ format: 'date-time' })
  at: string;

  @ApiProperty({ example: 'POST /Calls.json', description: 'The REST operation, ids left out' })
  operation: string;
}

export class ConnectionFailureDto {
  @ApiProperty({ format: 'date-time' })
  at: string;

  @ApiProperty({ example: 'POST /Calls.json' })
  operation: string;

  @ApiProperty({ type: Number, nullable: true, example: 401, description: 'HTTP status; null: no answer' })
  status: number | null;

  @ApiProperty({ enum: CONNECTION_FAILURE_REASONS })
  reason: ConnectionFailureReason;
}

export class ConnectionCallbackDto {
  @ApiProperty({ format: 'date-time', description: 'A signed callback of the carrier was verified' })
  at: string;
}

/**
 * What the platform last saw of the carrier on this connection. Recorded at most every few seconds per
 * connection and kind, so it may trail the very latest request by that much.
 */
export class ConnectionHealthDto {
  @ApiProperty({ type: ConnectionSuccessDto, nullable: true })
  last_success: ConnectionSuccessDto | null;

  @ApiProperty({ type: ConnectionFailureDto, nullable: true })
  last_failure: ConnectionFailureDto | null;

  @ApiProperty({ type: ConnectionCallbackDto, nullable: true })
  last_callback: ConnectionCallbackDto | null;
}

/** One carrier connection of the account: never a secret, its account id masked. */
export class TelephonyConnectionResourceDto {
  @ApiProperty({ example: TELEPHONY_CONNECTION_ID_EXAMPLE, description: 'tcn_ followed by a UUID' })
  id: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The same connection as calls, phone numbers and GET /config/telephony name it',
  })
  connection_id: string;

  @ApiProperty({ enum: CARRIER_CONNECTION_PROVIDERS })
  provider: CarrierConnectionProvider;

  @ApiProperty({ type: String, nullable: true })
  label: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'ACXX****************************XXXX',
    description: 'auth_id or account_sid, masked; null for the sandbox. The auth token is never returned.',
  })
  account_id_masked: string | null;

  @ApiProperty({ type: String, nullable: true, example: E164_EXAMPLE })
  from_number: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'carrier_a and carrier_b: the voice/answer URL to set on your carrier numbers',
  })
  inbound_webhook_url: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://api.example.com/callbacks/inbound/carrier_a/3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11/sms',
    description:
      'carrier_a and carrier_b: the message URL to set on your carrier numbers so SMS they receive reach ' +
      'the platform (message.received); null for the sandbox',
  })
  inbound_sms_url: string | null;

  @ApiProperty({ enum: CONNECTION_STATUSES })
  status: ConnectionStatus;

  @ApiProperty({
    type: [ConnectionNumberDto],
    description: `The account’s numbers on this connection (the first ${CONNECTION_NUMBERS_SHOWN})`,
  })
  numbers: ConnectionNumberDto[];

  @ApiProperty({ example: 1, description: 'How many numbers the connection has in all' })
  numbers_total: number;

  @ApiProperty({ type: ConnectionHealthDto })
  health: ConnectionHealthDto;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class TelephonyConnectionResourceListDto {
  @ApiProperty({
    type: [TelephonyConnectionResourceDto],
    description: 'Oldest first; at most one per provider',
  })
  telephony_connections: TelephonyConnectionResourceDto[];
}

export class TelephonyConnectionDeletedDto {
  @ApiProperty({ example: TELEPHONY_CONNECTION_ID_EXAMPLE })
  id: string;

  @ApiProperty({ example: true })
  deleted: true;

  @ApiProperty({ type: [String], example: [E164_EXAMPLE], description: 'Numbers deleted with it' })
  numbers_deleted: string[];

  @ApiProperty({ example: 'Telephony connection deleted' })
  message: string;
}

export class TelephonyConnectionTestDto {
  @ApiProperty({ example: TELEPHONY_CONNECTION_ID_EXAMPLE })
  id: string;

  @ApiProperty({ enum: CARRIER_CONNECTION_PROVIDERS })
  provider: CarrierConnectionProvider;

  @ApiProperty({ enum: ['ok', 'failed'] })
  result: 'ok' | 'failed';

  @ApiProperty({ enum: CONNECTION_FAILURE_REASONS, nullable: true, description: 'null when ok' })
  reason: ConnectionFailureReason | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 200,
    description: 'The carrier’s HTTP status; null when it did not answer (or for the sandbox)',
  })
  carrier_status: number | null;

  @ApiProperty({ example: 84, description: 'Time to the carrier’s answer, in milliseconds' })
  latency_ms: number;

  @ApiProperty({ example: 'carrier_b accepted the credentials (GET account)' })
  message: string;

  @ApiProperty({ format: 'date-time' })
  tested_at: string;
}
