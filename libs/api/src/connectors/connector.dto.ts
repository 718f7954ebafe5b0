import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CursorQueryDto } from '../pagination';
import { IfPresent, Satisfies } from '../validation';
import { IsHttpsUrl } from '../webhooks/webhook-field.validators';

export const CONNECTOR_TYPES = ['oauth2', 'api_key'] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];
/** RFC 6749 §2.3.1: HTTP Basic (the default every server must support) or the secret in the token request's body. */
export const TOKEN_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type TokenAuthMethod = (typeof TOKEN_AUTH_METHODS)[number];
export const API_KEY_PLACEMENTS = ['header', 'query'] as const;
export type ApiKeyPlacement = (typeof API_KEY_PLACEMENTS)[number];

export const ConnectorLimits = {
  perAccount: 50,
  nameMax: 100,
  scopesMax: 50,
  scopeMax: 200,
  clientIdMax: 500,
  clientSecretMax: 2000,
  authorizeParamsMax: 10,
  authorizeParamValueMax: 500,
  keyNameMax: 100,
  keyPrefixMax: 50,
} as const;

/** Authorization request parameters the platform sets itself (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export const RESERVED_AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

/** A scope token (RFC 6749 §3.3: printable ASCII without space, double quote or backslash). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the platform sets on a function's request, which a key may not replace. */
const PLATFORM_HEADERS =
  /^(host|content-length|content-type|user-agent|connection|transfer-encoding|x-vap-.*)$/i;

export function authorizeParamsProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'authorize_params must be an object of parameter names to string values';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > ConnectorLimits.authorizeParamsMax)
    return `authorize_params may have at most ${ConnectorLimits.authorizeParamsMax} parameters`;
  for (const [name, v] of entries) {
    if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name)) return `authorize_params: "${name}" is not a parameter name`;
    if ((RESERVED_AUTHORIZE_PARAMS as readonly string[]).includes(name.toLowerCase()))
      return `authorize_params: ${name} is set by the platform`;
    if (typeof v !== 'string' || v.length > ConnectorLimits.authorizeParamValueMax)
      return `authorize_params: ${name} must be a string of at most ${ConnectorLimits.authorizeParamValueMax} characters`;
  }
  return null;
}

const SCOPES_DOC = {
  type: String,
  isArray: true,
  maxItems: ConnectorLimits.scopesMax,
  example: ['calendar.read', 'calendar.write'],
  description: 'Scopes asked for (RFC 6749 §3.3), sent space-separated',
};
const AUTHORIZE_PARAMS_DOC = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { access_type: 'offline', prompt: 'consent' },
  description:
    `Extra authorization request parameters (at most ${ConnectorLimits.authorizeParamsMax}); ` +
    `${RESERVED_AUTHORIZE_PARAMS.join(', ')} are set by the platform`,
} as const;

/** oauth2.scopes, the same on create and update (optional on both). */
function ScopesField(): PropertyDecorator {
  // Applied in the order a decorator stack is (bottom first), so the messages come out as they did.
  const decorators: PropertyDecorator[] = [
    IsString({ each: true, message: 'each scope must be a string' }),
    Matches(SCOPE_TOKEN, { each: true, message: 'a scope is printable ASCII without spaces, " or \\' }),
    Length(1, ConnectorLimits.scopeMax, { each: true, message: 'each scope must be 1 to 200 characters' }),
    ArrayMaxSize(ConnectorLimits.scopesMax, {
      message: `oauth2.scopes may have at most ${ConnectorLimits.scopesMax} scopes`,
    }),
    IsArray({ message: 'oauth2.scopes must be an array of scope names' }),
    IfPresent(),
    ApiPropertyOptional(SCOPES_DOC),
  ];
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

/** An OAuth 2.0 authorization-code connector (RFC 6749 §4.1, with PKCE S256, RFC 7636), as created. */
export class OAuth2ConnectorInputDto {
  @ApiProperty({ example: 'https://auth.example.com/oauth/authorize', maxLength: 2048, description: 'HTTPS' })
  @IsDefined({ message: 'oauth2.authorize_url is required' })
  @IsHttpsUrl('oauth2.authorize_url')
  authorize_url: string;

  @ApiProperty({ example: 'https://auth.example.com/oauth/token', maxLength: 2048, description: 'HTTPS' })
  @IsDefined({ message: 'oauth2.token_url is required' })
  @IsHttpsUrl('oauth2.token_url')
  token_url: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2048,
    description: 'Token revocation endpoint (RFC 7009), called on disconnect; null: none',
  })
  @IsOptional()
  @IsHttpsUrl('oauth2.revocation_url')
  revocation_url?: string | null;

  @ScopesField()
  scopes?: string[];

  @ApiProperty({ minLength: 1, maxLength: ConnectorLimits.clientIdMax, example: 'vap-client-123' })
  @IsDefined({ message: 'oauth2.client_id is required' })
  @Length(1, ConnectorLimits.clientIdMax, { message: 'oauth2.client_id must be 1 to 500 characters' })
  @IsString()
  client_id: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: ConnectorLimits.clientSecretMax,
    description: 'Stored encrypted, never returned. Omitted: a public client (PKCE alone)',
  })
  @IfPresent()
  @Length(1, ConnectorLimits.clientSecretMax, {
    message: 'oauth2.client_secret must be 1 to 2000 characters',
  })
  @IsString()
  client_secret?: string;

  @ApiPropertyOptional({
    enum: TOKEN_AUTH_METHODS,
    default: 'client_secret_basic',
    description: 'How the client authenticates at the token endpoint (RFC 6749 §2.3.1)',
  })
  @IfPresent()
  @IsIn(TOKEN_AUTH_METHODS as unknown as string[], {
    message: `oauth2.token_auth_method must be one of ${TOKEN_AUTH_METHODS.join(', ')}`,
  })
  token_auth_method?: TokenAuthMethod;

  @ApiPropertyOptional({ ...AUTHORIZE_PARAMS_DOC, nullable: true })
  @IsOptional()
  @Satisfies('authorizeParams', authorizeParamsProblem)
  authorize_params?: Record<string, string> | null;
}

/** PATCH of an OAuth 2.0 connector: each field given replaces the stored one. */
export class UpdateOAuth2ConnectorDto {
  @ApiPropertyOptional({
    maxLength: 2048,
    description:
      'HTTPS, a public host. Another origin than the stored one moves the authorization server: client_secret must ' +
      'be sent again and every connection becomes reconnect_required',
  })
  @IfPresent()
  @IsHttpsUrl('oauth2.authorize_url')
  authorize_url?: string;

  @ApiPropertyOptional({
    maxLength: 2048,
    description:
      'A new token endpoint needs client_secret again in the same request (400 VALIDATION_ERROR without it); ' +
      'every connection loses its tokens (never sent to the new URL) and becomes reconnect_required',
  })
  @IfPresent()
  @IsHttpsUrl('oauth2.token_url')
  token_url?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2048,
    description:
      'A new revocation endpoint needs client_secret again, as token_url does; null removes it (no reconnect)',
  })
  @IsOptional()
  @IsHttpsUrl('oauth2.revocation_url')
  revocation_url?: string | null;

  @ScopesField()
  scopes?: string[];

  @ApiPropertyOptional({ minLength: 1, maxLength: ConnectorLimits.clientIdMax })
  @IfPresent()
  @Length(1, ConnectorLimits.clientIdMax, { message: 'oauth2.client_id must be 1 to 500 characters' })
  @IsString()
  client_id?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: ConnectorLimits.clientSecretMax,
    description:
      'Replaces the stored secret; null removes it (a public client). Required (a value or null) when token_url, ' +
      'revocation_url or the authorize_url’s origin changes and a secret is stored',
  })
  @IsOptional()
  @Length(1, ConnectorLimits.clientSecretMax, {
    message: 'oauth2.client_secret must be 1 to 2000 characters',
  })
  @IsString()
  client_secret?: string | null;

  @ApiPropertyOptional({ enum: TOKEN_AUTH_METHODS })
  @IfPresent()
  @IsIn(TOKEN_AUTH_METHODS as unknown as string[], {
    message: `oauth2.token_auth_method must be one of ${TOKEN_AUTH_METHODS.join(', ')}`,
  })
  token_auth_method?: TokenAuthMethod;

  @ApiPropertyOptional({ ...AUTHORIZE_PARAMS_DOC, nullable: true })
  @IsOptional()
  @Satisfies('authorizeParams', authorizeParamsProblem)
  authorize_params?: Record<string, string> | null;
}

/** Where a customer's API key goes on a function's request. */
export class ApiKeyConnectorDto {
  @ApiProperty({ enum: API_KEY_PLACEMENTS, description: 'A request header, or a query parameter' })
  @IsDefined({ message: 'api_key.in is required' })
  @IsIn(API_KEY_PLACEMENTS as unknown as string[], { message: 'api_key.in must be header or query' })
  in: ApiKeyPlacement;

  @ApiProperty({
    minLength: 1,
    maxLength: ConnectorLimits.keyNameMax,
    example: 'Authorization',
    description: 'The header or query parameter name',
  })
  @IsDefined({ message: 'api_key.name is required' })
  @Satisfies('apiKeyName', (v) =>
    typeof v === 'string' && PLATFORM_HEADERS.test(v) ? `api_key.name: ${v} is set by the platform` : null,
  )
  @Matches(HEADER_NAME, { message: 'api_key.name must be a header or parameter name' })
  @Length(1, ConnectorLimits.keyNameMax, { message: 'api_key.name must be 1 to 100 characters' })
  @IsString()
  name: string;

  @ApiPropertyOptional({
    maxLength: ConnectorLimits.keyPrefixMax,
    example: 'Bearer ',
    description: 'Put before the key (e.g. "Bearer "); default none',
  })
  @IfPresent()
  @Length(0, ConnectorLimits.keyPrefixMax, { message: 'api_key.prefix must be at most 50 characters' })
  @Matches(/^[\x20-\x7E]*$/, { message: 'api_key.prefix must be printable ASCII' })
  @IsString()
  prefix?: string;
}

const NAME = {
  minLength: 1,
  maxLength: ConnectorLimits.nameMax,
  example: 'Acme Calendar',
  description: 'Shown to the customer on the connect pages; unique on the account (409 CONFLICT)',
} as const;

export class CreateConnectorDto {
  @ApiProperty(NAME)
  @IsDefined({ message: 'name is required' })
  @Length(1, ConnectorLimits.nameMax, { message: 'name must be 1 to 100 characters' })
  @IsString()
  name: string;

  @ApiProperty({ enum: CONNECTOR_TYPES })
  @IsDefined({ message: 'type is required' })
  @IsIn(CONNECTOR_TYPES as unknown as string[], { message: 'type must be oauth2 or api_key' })
  type: ConnectorType;

  @ApiPropertyOptional({ type: OAuth2ConnectorInputDto, description: 'Required when type is oauth2' })
  @ValidateIf((o: CreateConnectorDto) => o.type === 'oauth2' || o.oauth2 !== undefined)
  @IsDefined({ message: 'oauth2 is required when type is oauth2' })
  @ValidateNested()
  @Type(() => OAuth2ConnectorInputDto)
  @IsObject({ message: 'oauth2 must be an object' })
  oauth2?: OAuth2ConnectorInputDto;

  @ApiPropertyOptional({ type: ApiKeyConnectorDto, description: 'Required when type is api_key' })
  @ValidateIf((o: CreateConnectorDto) => o.type === 'api_key' || o.api_key !== undefined)
  @IsDefined({ message: 'api_key is required when type is api_key' })
  @ValidateNested()
  @Type(() => ApiKeyConnectorDto)
  @IsObject({ message: 'api_key must be an object' })
  api_key?: ApiKeyConnectorDto;
}

/** PATCH: the type never changes; oauth2 fields given replace the stored ones, api_key replaces it whole. */
export class UpdateConnectorDto {
  @ApiPropertyOptional(NAME)
  @IfPresent()
  @Length(1, ConnectorLimits.nameMax, { message: 'name must be 1 to 100 characters' })
  @IsString()
  name?: string;

  @ApiPropertyOptional({ type: UpdateOAuth2ConnectorDto, description: 'Only for an oauth2 connector' })
  @IfPresent()
  @ValidateNested()
  @Type(() => UpdateOAuth2ConnectorDto)
  @IsObject({ message: 'oauth2 must be an object' })
  oauth2?: UpdateOAuth2ConnectorDto;

  @ApiPropertyOptional({ type: ApiKeyConnectorDto, description: 'Only for an api_key connector' })
  @IfPresent()
  @ValidateNested()
  @Type(() => ApiKeyConnectorDto)
  @IsObject({ message: 'api_key must be an object' })
  api_key?: ApiKeyConnectorDto;
}

export class ListConnectorsQueryDto extends CursorQueryDto {}

/** An OAuth 2.0 connector as reads show it: the client secret never. */
export class OAuth2ConnectorDto {
  @ApiProperty()
  authorize_url: string;

  @ApiProperty()
  token_url: string;

  @ApiProperty({ type: String, nullable: true })
  revocation_url: string | null;

  @ApiProperty({ type: [String] })
  scopes: string[];

  @ApiProperty()
  client_id: string;

  @ApiProperty({ description: 'Whether a client secret is stored (it is never shown)' })
  client_secret_set: boolean;

  @ApiProperty({ enum: TOKEN_AUTH_METHODS })
  token_auth_method: TokenAuthMethod;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  authorize_params: Record<string, string>;
}

export class ApiKeyConnectorRecordDto {
  @ApiProperty({ enum: API_KEY_PLACEMENTS })
  in: ApiKeyPlacement;

  @ApiProperty()
  name: string;

  @ApiProperty()
  prefix: string;
}

export class ConnectorDto {
  @ApiProperty({
    example: 'ctr_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: '`ctr_` followed by a UUID',
  })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: CONNECTOR_TYPES })
  type: ConnectorType;

  @ApiProperty({ type: OAuth2ConnectorDto, nullable: true, description: 'Set for type oauth2' })
  oauth2: OAuth2ConnectorDto | null;

  @ApiProperty({ type: ApiKeyConnectorRecordDto, nullable: true, description: 'Set for type api_key' })
  api_key: ApiKeyConnectorRecordDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class ConnectorListDto {
  @ApiProperty({ type: [ConnectorDto] })
  connectors: ConnectorDto[];

  @ApiProperty({ type: String, nullable: true })
  next_cursor: string | null;
}

export class ConnectorDeletedDto {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: 'Connector deleted' })
  message: string;
}
