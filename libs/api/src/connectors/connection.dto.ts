import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Matches } from 'class-validator';
import { CONNECTOR_TYPES, ConnectorType } from './connector.dto';

export const CUSTOMER_CONNECTION_STATUSES = [
  'pending',
  'connected',
  'expired',
  'revoked',
  'error',
  'reconnect_required',
] as const;
export type CustomerConnectionStatus = (typeof CUSTOMER_CONNECTION_STATUSES)[number];

export class CreateConnectionDto {
  @ApiProperty({
    example: 'ctr_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: 'One of the account’s connectors',
  })
  @IsDefined({ message: 'connector_id is required' })
  @Matches(/^ctr_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: 'connector_id must be a connector id (ctr_<uuid>)',
  })
  @IsString({ message: 'connector_id must be a connector id' })
  connector_id: string;
}

/** A customer's connection to a connector as the partner sees it: its state, never a token or key. */
export class ConnectionDto {
  @ApiProperty({
    example: 'cxn_5d1c7f0e-2a4b-4c3d-8e9f-0a1b2c3d4e5f',
    description: '`cxn_` followed by a UUID',
  })
  id: string;

  @ApiProperty()
  customer_id: string;

  @ApiProperty()
  connector_id: string;

  @ApiProperty({ enum: CONNECTOR_TYPES })
  connector_type: ConnectorType;

  @ApiProperty({
    enum: CUSTOMER_CONNECTION_STATUSES,
    description:
      'pending: the link was made and not completed yet; connected: usable; expired: the link ran out before it ' +
      'was completed, or the access token ran out with no refresh token; revoked: the server refused the refresh ' +
      'token (invalid_grant), the customer must connect again; error: the last attempt to connect failed (see error); ' +
      'reconnect_required: the connector’s token, revocation or authorization URL changed, so the customer’s tokens ' +
      'were dropped (never sent to the new URL) and the customer must connect again through a new link',
  })
  status: CustomerConnectionStatus;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  connected_at: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When the access token runs out (refreshed on use); null: no expiry given, or an API key',
  })
  expires_at: string | null;

  @ApiProperty({
    type: [String],
    description: 'Scopes the server granted (RFC 6749 §5.1), else those asked for',
  })
  scopes: string[];

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  last_refreshed_at: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the last attempt failed (status error or revoked), or why a new consent is needed (reconnect_required)',
  })
  error: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When the outstanding connect link runs out; null once spent',
  })
  link_expires_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

/** POST /customers/{id}/connections: the link to send the customer, shown once. */
export class ConnectionLinkDto {
  @ApiProperty({ type: ConnectionDto })
  connection: ConnectionDto;

  @ApiProperty({
    example: 'https://api.example.com/connect/3q2-7wEjVh0bq8n1Vt5T1xJk2w0yR2o1bq9cX2mY4fU',
    description:
      'The hosted connect page for the customer: single-use (spent when a connection completes through it), ' +
      'expiring, its token unguessable and shown only here. A new link replaces the previous one',
  })
  connect_url: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class ConnectionListDto {
  @ApiProperty({ type: [ConnectionDto] })
  connections: ConnectionDto[];
}

export class ConnectionDeletedDto {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: 'Connection deleted' })
  message: string;

  @ApiProperty({
    description:
      'Whether the connector’s revocation endpoint (RFC 7009) accepted the token; false when it has none',
  })
  revoked: boolean;
}

/** Internal requests of the connection commands: the gateway has checked the customer is the account's. */
export interface ConnectionCreateRequest {
  customerId: string;
  connectorId: string;
  /** The gateway's public base for the link (its /connect/{token} page). */
  publicBaseUrl: string;
}
export interface ConnectionListRequest {
  customerId: string;
}
export interface ConnectionDeleteRequest {
  customerId: string;
  id: string;
}
