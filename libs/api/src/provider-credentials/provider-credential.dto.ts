import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { SPEECH_PROVIDERS, SpeechProviderName } from '@vap/messages';
import { trimString } from '../validation';

/** Bounds of a stored provider key and of its label. */
export const ProviderCredentialLimits = {
  apiKeyMin: 8,
  apiKeyMax: 512,
  labelMax: 100,
  /** The longest live key check a deployment may set (SPEECH_KEY_CHECK_TIMEOUT_MS's bound). */
  keyCheckMaxMs: 20_000,
} as const;

/** An Azure region name as Azure writes them (centralindia, eastus2). */
export const AZURE_REGION_PATTERN = /^[a-z][a-z0-9]{1,39}$/;

const API_KEY_DOC = {
  example: 'sk-proj-9c1d2e3f4a5b',
  minLength: ProviderCredentialLimits.apiKeyMin,
  maxLength: ProviderCredentialLimits.apiKeyMax,
  writeOnly: true,
  // Keys travel in HTTP headers to the providers: anything else could never be checked (and was a 502).
  pattern: '^[\\x21-\\x7E]+$',
  description:
    'The provider’s API key (printable ASCII, no spaces). Checked live with the provider before it is stored (400 when the provider refuses it, ' +
    '502 when it does not answer), stored encrypted and never returned: responses show its last four characters',
} as const;

const REGION_DOC = {
  type: String,
  example: 'centralindia',
  description: 'Azure Speech only, and required there: the region the key belongs to',
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
    Matches(AZURE_REGION_PATTERN, {
      message: 'region must be an Azure region name in lower case (e.g. centralindia)',
    })(target, property);
    IsString({ message: 'region must be a string' })(target, property);
    Transform(trimString)(target, property);
  };
}

export class CreateProviderCredentialDto {
  @ApiProperty({ enum: SPEECH_PROVIDERS, description: 'One key per provider and account (409 CONFLICT)' })
  @IsDefined({ message: 'provider is required' })
  @IsIn(SPEECH_PROVIDERS as unknown as string[], {
    message: `provider must be one of ${SPEECH_PROVIDERS.join(', ')}`,
  })
  provider: SpeechProviderName;

  @ApiProperty(API_KEY_DOC)
  @ApiKeyField()
  api_key: string;

  @ApiPropertyOptional({ ...REGION_DOC, nullable: true })
  @RegionField()
  region?: string | null;

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

/** PUT: a new key for the same provider (rotation), checked live as on creation. */
export class RotateProviderCredentialDto {
  @ApiProperty(API_KEY_DOC)
  @ApiKeyField()
  api_key: string;

  @ApiPropertyOptional({
    ...REGION_DOC,
    nullable: true,
    description: `${REGION_DOC.description}; omitted: kept`,
  })
  @RegionField()
  region?: string | null;
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

  @ApiProperty({ enum: SPEECH_PROVIDERS })
  provider: SpeechProviderName;

  @ApiProperty({ type: String, nullable: true, example: 'Production ElevenLabs' })
  label: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'centralindia',
    description: 'Azure Speech keys only',
  })
  region: string | null;

  @ApiProperty({ example: '…a1b2', description: 'An ellipsis and the key’s last four characters' })
  key_last4: string;

  @ApiProperty({ enum: ['active'], description: 'The provider accepted the key at its last check' })
  status: 'active';

  @ApiProperty({ format: 'date-time', description: 'When the provider last accepted the key' })
  checked_at: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class ProviderCredentialRecordDto {
  @ApiProperty({ type: ProviderCredentialDto })
  provider_credential: ProviderCredentialDto;
}

export class ProviderCredentialListDto {
  @ApiProperty({ type: [ProviderCredentialDto], description: 'The account’s keys, one per provider at most' })
  provider_credentials: ProviderCredentialDto[];
}

export class ProviderCredentialDeletedDto {
  @ApiProperty({ example: 'pcred_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' })
  id: string;

  @ApiProperty({ example: 'Provider credential deleted' })
  message: string;
}
