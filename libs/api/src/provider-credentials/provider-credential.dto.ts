import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { CREDENTIAL_PROVIDERS, CREDENTIAL_USES, CredentialProviderName, CredentialUse } from '@vap/messages';
import { IfPresent, trimString } from '../validation';
import { IsHttpsUrl } from '../webhooks/webhook-field.validators';

/** Bounds of a stored provider key and of its label. */
export const ProviderCredentialLimits = {
  apiKeyMin: 8,
  apiKeyMax: 512,
  labelMax: 100,
  /** The longest live key check a deployment may set (SPEECH_ and MODEL_KEY_CHECK_TIMEOUT_MS's bound). */
  keyCheckMaxMs: 20_000,
} as const;

/** An Azure region name as Azure writes them (centralindia, eastus2). */
export const AZURE_REGION_PATTERN = /^[a-z][a-z0-9]{1,39}$/;

/** An Azure OpenAI resource name as its endpoint writes it (https://{resource}.openai.azure.com). */
export const AZURE_OPENAI_RESOURCE_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/;

/** A custom model server's signing secret: `mssec_` and 32 random bytes, base64url. */
export const MODEL_SERVER_SECRET_PREFIX = 'mssec_';

/** The longest custom model server base URL. */
export const MODEL_SERVER_URL_MAX = 2048;

const API_KEY_DOC = {
  type: String,
  example: 'sk-proj-9c1d2e3f4a5b',
  minLength: ProviderCredentialLimits.apiKeyMin,
  maxLength: ProviderCredentialLimits.apiKeyMax,
  writeOnly: true,
  // Keys travel in HTTP headers to the providers: anything else could never be checked (and was a 502).
  pattern: '^[\\x21-\\x7E]+$',
  description:
    'The provider’s API key (printable ASCII, no spaces). Checked live with the provider before it is stored (400 when the provider refuses it, ' +
    '502 when it does not answer), stored encrypted and never returned: responses show its last four characters. ' +
    'Required for every provider but custom, where it is optional (sent to your server as a bearer token)',
} as const;

const REGION_DOC = {
  type: String,
  example: 'centralindia',
  description:
    'Azure Speech (azure): the region the key belongs to (e.g. centralindia). Azure OpenAI (azure_openai): the ' +
    'name of the key’s Azure OpenAI resource, as in https://{resource}.openai.azure.com. Required for those two, ' +
    'refused for every other provider',
} as const;

const BASE_URL_DOC = {
  type: String,
  format: 'uri',
  example: 'https://models.example.com/v1',
  maxLength: MODEL_SERVER_URL_MAX,
  description:
    'custom only, and required there: your model server’s base URL (HTTPS, a public host). The platform sends ' +
    'OpenAI-compatible streamed chat completions to <base_url>/chat/completions, signed with the signing secret; ' +
    'the key check is a signed GET <base_url>/models (2xx, 404 or 405 pass; 401 or 403 refuse)',
} as const;

function ApiKeyField(): PropertyDecorator {
  return (target, property) => {
    IsDefined({ message: 'api_key is required' })(target, property);
    // It is sent in an HTTP header: visible ASCII only (a header cannot carry anything else).
    Matches(/^[\x21-\x7E]+$/, {
      message: 'api_key must be visible ASCII characters, without spaces or line breaks',
    })(target, property);
    Length(ProviderCredentialLimits.apiKeyMin, ProviderCredentialLimits.apiKeyMax, {
      message: `api_key must be ${ProviderCredentialLimits.apiKeyMin} to ${ProviderCredentialLimits.apiKeyMax} characters`,
    })(target, property);
    IsString({ message: 'api_key must be a string' })(target, property);
    Transform(trimString)(target, property);
  };
}

function RegionField(): PropertyDecorator {
  return (target, property) => {
    IsOptional()(target, property);
    // An Azure region or an Azure OpenAI resource name; which one the provider takes is checked with the provider.
    Matches(AZURE_OPENAI_RESOURCE_PATTERN, {
      message:
        'region must be an Azure region (e.g. centralindia) or an Azure OpenAI resource name, in lower case',
    })(target, property);
    IsString({ message: 'region must be a string' })(target, property);
    Transform(trimString)(target, property);
  };
}

function BaseUrlField(): PropertyDecorator {
  return (target, property) => {
    IsHttpsUrl('base_url')(target, property);
    Transform(trimString)(target, property);
  };
}

const PROVIDER_DESCRIPTION =
  'A speech provider (openai, elevenlabs, cartesia, deepgram, azure, sarvam, assemblyai), a model provider ' +
  '(openai, anthropic, google, azure_openai, groq, together, fireworks, openrouter, deepseek, mistral) or custom: ' +
  'your own OpenAI-compatible model server. An openai key serves OpenAI speech and OpenAI models alike. One ' +
  'credential per provider and account (409 CONFLICT)';

export class CreateProviderCredentialDto {
  @ApiProperty({ enum: CREDENTIAL_PROVIDERS, description: PROVIDER_DESCRIPTION })
  @IsDefined({ message: 'provider is required' })
  @IsIn(CREDENTIAL_PROVIDERS as string[], {
    message: `provider must be one of ${CREDENTIAL_PROVIDERS.join(', ')}`,
  })
  provider: CredentialProviderName;

  @ApiPropertyOptional({ ...API_KEY_DOC, nullable: true })
  // custom takes no key at all, or null.
  @ValidateIf((o: { provider?: unknown }, value: unknown) => o.provider !== 'custom' || value != null)
  @ApiKeyField()
  api_key?: string | null;

  @ApiPropertyOptional({ ...REGION_DOC, nullable: true })
  @RegionField()
  region?: string | null;

  @ApiPropertyOptional(BASE_URL_DOC)
  @ValidateIf((o: { provider?: unknown }, value: unknown) => o.provider === 'custom' || value !== undefined)
  @IsDefined({ message: 'base_url is required for provider custom (your model server’s HTTPS base URL)' })
  @BaseUrlField()
  base_url?: string;

  @ApiPropertyOptional({
    type: String,
    example: 'Production ElevenLabs',
    maxLength: ProviderCredentialLimits.labelMax,
    nullable: true,
    description: 'A name of your choice',
  })
  @IsOptional()
  @Length(1, ProviderCredentialLimits.labelMax, {
    message: `label must be 1 to ${ProviderCredentialLimits.labelMax} characters`,
  })
  @IsString({ message: 'label must be a string' })
  @Transform(trimString)
  label?: string | null;
}

/**
 * PUT: a new key for the same provider (rotation), checked live as on creation. custom: a new base_url and/or
 * api_key (each omitted: kept; api_key null: none).
 */
export class RotateProviderCredentialDto {
  @ApiPropertyOptional({
    ...API_KEY_DOC,
    nullable: true,
    description:
      `${API_KEY_DOC.description}. custom: omitted keeps the stored key (unless base_url moves to another origin, ` +
      'which needs it sent again), null removes it',
  })
  @ValidateIf((_: object, value: unknown) => value !== undefined && value !== null)
  @ApiKeyField()
  api_key?: string | null;

  @ApiPropertyOptional({
    ...REGION_DOC,
    nullable: true,
    description: `${REGION_DOC.description}; omitted: kept`,
  })
  @RegionField()
  region?: string | null;

  @ApiPropertyOptional({
    ...BASE_URL_DOC,
    description:
      'custom only: your model server’s new base URL; omitted: kept. Another origin (scheme, host or port) than ' +
      'the stored one gets a new signing_secret, answered once: a secret is never sent where it was not given for',
  })
  @IfPresent()
  @BaseUrlField()
  base_url?: string;
}

/** PATCH: the label alone (the key changes by PUT). */
export class UpdateProviderCredentialDto {
  @ApiProperty({
    type: String,
    example: 'Production ElevenLabs',
    maxLength: ProviderCredentialLimits.labelMax,
    nullable: true,
    description: 'The new label; null clears it',
  })
  @ValidateIf((_: object, value: unknown) => value !== null)
  @IsDefined({ message: 'label is required (null clears it)' })
  @Length(1, ProviderCredentialLimits.labelMax, {
    message: `label must be 1 to ${ProviderCredentialLimits.labelMax} characters`,
  })
  @IsString({ message: 'label must be a string' })
  @Transform(trimString)
  label: string | null;
}

/** A stored key as every response shows it: never the key, only its last four characters. */
export class ProviderCredentialDto {
  @ApiProperty({
    example: 'pcred_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: '`pcred_` followed by a UUID',
  })
  id: string;

  @ApiProperty({ enum: CREDENTIAL_PROVIDERS })
  provider: CredentialProviderName;

  @ApiProperty({ type: String, nullable: true, example: 'Production ElevenLabs' })
  label: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'centralindia',
    description:
      'Azure Speech keys: their region; Azure OpenAI keys: their resource name; null for the others',
  })
  region: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '…a1b2',
    description: 'An ellipsis and the key’s last four characters; null: a custom model server taking no key',
  })
  key_last4: string | null;

  @ApiProperty({
    type: [String],
    enum: CREDENTIAL_USES,
    example: ['speech', 'models'],
    description:
      'What the credential serves: speech (voices and transcribers of the provider), models (agents’ models of ' +
      'the provider, or of custom: your model server)',
  })
  used_for: CredentialUse[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://models.example.com/v1',
    description: 'custom: your model server’s base URL; null for every other provider',
  })
  base_url: string | null;

  @ApiProperty({ enum: ['active'], description: 'The provider accepted the key at its last check' })
  status: 'active';

  @ApiProperty({ format: 'date-time', description: 'When the provider last accepted the key' })
  checked_at: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

/** What creation and rotation answer: the credential, with a custom server's new signing secret shown this once. */
export class ProviderCredentialWithSecretDto extends ProviderCredentialDto {
  @ApiPropertyOptional({
    example: 'mssec_Hq1mJ3x2p4c9kq0b8WcVgG5n3m8s0y7tZk1QnH2rL4A',
    description:
      'custom only, when a signing secret was made (creation, or a PUT moving base_url to another origin), and ' +
      'shown only then: every request to your server carries X-Vap-Timestamp and X-Vap-Signature = v1=<hex ' +
      'HMAC-SHA256 of "<X-Vap-Timestamp>.<raw body>"> keyed with this whole string (UTF-8), as custom functions are',
  })
  signing_secret?: string;
}

export class ProviderCredentialRecordDto {
  @ApiProperty({ type: ProviderCredentialDto })
  provider_credential: ProviderCredentialDto;
}

export class ProviderCredentialWithSecretRecordDto {
  @ApiProperty({ type: ProviderCredentialWithSecretDto })
  provider_credential: ProviderCredentialWithSecretDto;
}

export class ProviderCredentialListDto {
  @ApiProperty({
    type: [ProviderCredentialDto],
    description: 'The account’s credentials, one per provider at most',
  })
  provider_credentials: ProviderCredentialDto[];
}

export class ProviderCredentialDeletedDto {
  @ApiProperty({ example: 'pcred_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' })
  id: string;

  @ApiProperty({ example: 'Provider credential deleted' })
  message: string;
}
