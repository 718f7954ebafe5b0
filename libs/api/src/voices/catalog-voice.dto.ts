import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  TTS_PROVIDERS,
  TtsProviderName,
  VOICE_GENDERS,
  VOICE_TIERS,
  VoiceGender,
  VoiceTier,
} from '@vap/messages';
import { IfPresent, trimString } from '../validation';

export const CatalogVoiceLimits = {
  displayNameMax: 100,
  descriptionMax: 500,
  modelNameMax: 100,
  providerVoiceIdMax: 200,
  /** The preview is synthesised from it: a sentence or two keeps the audio short. */
  previewTextMax: 300,
  speedMin: 0.5,
  speedMax: 2,
  volumeMin: 0.1,
  volumeMax: 2,
} as const;

/** A locale: language (ISO 639, 2-3 letters) and region (ISO 3166, 2 letters): en-IN, hi-IN, en-US. */
export const LOCALE_PATTERN = /^[a-z]{2,3}-[A-Z]{2}$/;

const L = CatalogVoiceLimits;
const DOC = {
  display_name: { minLength: 1, maxLength: L.displayNameMax, example: 'Asha' },
  description: { maxLength: L.descriptionMax, example: 'Warm Hindi voice for reminders' },
  provider: { enum: TTS_PROVIDERS, description: 'The speech provider that speaks it' },
  model_name: { minLength: 1, maxLength: L.modelNameMax, example: 'bulbul:v2' },
  tier: { enum: VOICE_TIERS, description: 'Accounts of this tier and above may use it' },
  provider_voice_id: {
    minLength: 1,
    maxLength: L.providerVoiceIdMax,
    example: 'anushka',
    description: "The provider's own id of the voice",
  },
  speed: { minimum: L.speedMin, maximum: L.speedMax, default: 1 },
  volume: { minimum: L.volumeMin, maximum: L.volumeMax, default: 1 },
  language: { pattern: LOCALE_PATTERN.source, example: 'hi-IN', description: 'Locale: language-REGION' },
  gender: { enum: VOICE_GENDERS },
  preview_text: {
    minLength: 1,
    maxLength: L.previewTextMax,
    description: 'What the voice says in its preview (GET /voice-configurations/{id}/preview)',
  },
} as const;

const lengthRule = (field: string, max: number) => ({ message: `${field} must be 1 to ${max} characters` });
const RANGE_SPEED = { message: `speed must be a number from ${L.speedMin} to ${L.speedMax}` };
const RANGE_VOLUME = { message: `volume must be a number from ${L.volumeMin} to ${L.volumeMax}` };
const FINITE = { allowNaN: false, allowInfinity: false };

/** POST /admin/v1/voices: a new catalog voice, active at once. */
export class CreateCatalogVoiceDto {
  @ApiProperty(DOC.display_name)
  @IsDefined({ message: 'display_name is required' })
  @Transform(trimString)
  @Length(1, L.displayNameMax, lengthRule('display_name', L.displayNameMax))
  @IsString({ message: 'display_name must be a string' })
  display_name: string;

  @ApiPropertyOptional({ ...DOC.description, default: '' })
  @IfPresent()
  @MaxLength(L.descriptionMax, { message: `description must be at most ${L.descriptionMax} characters` })
  @IsString({ message: 'description must be a string' })
  description?: string;

  @ApiProperty(DOC.provider)
  @IsDefined({ message: 'provider is required' })
  @IsIn(TTS_PROVIDERS as unknown as string[], {
    message: `provider must be one of ${TTS_PROVIDERS.join(', ')}`,
  })
  provider: TtsProviderName;

  @ApiProperty(DOC.model_name)
  @IsDefined({ message: 'model_name is required' })
  @Transform(trimString)
  @Length(1, L.modelNameMax, lengthRule('model_name', L.modelNameMax))
  @IsString({ message: 'model_name must be a string' })
  model_name: string;

  @ApiProperty(DOC.tier)
  @IsDefined({ message: 'tier is required' })
  @IsIn(VOICE_TIERS as unknown as string[], { message: `tier must be one of ${VOICE_TIERS.join(', ')}` })
  tier: VoiceTier;

  @ApiProperty(DOC.provider_voice_id)
  @IsDefined({ message: 'provider_voice_id is required' })
  @Transform(trimString)
  @Length(1, L.providerVoiceIdMax, lengthRule('provider_voice_id', L.providerVoiceIdMax))
  @IsString({ message: 'provider_voice_id must be a string' })
  provider_voice_id: string;

  @ApiPropertyOptional(DOC.speed)
  @IfPresent()
  @Min(L.speedMin, RANGE_SPEED)
  @Max(L.speedMax, RANGE_SPEED)
  @IsNumber(FINITE, { message: 'speed must be a number' })
  speed?: number;

  @ApiPropertyOptional(DOC.volume)
  @IfPresent()
  @Min(L.volumeMin, RANGE_VOLUME)
  @Max(L.volumeMax, RANGE_VOLUME)
  @IsNumber(FINITE, { message: 'volume must be a number' })
  volume?: number;

  @ApiProperty(DOC.language)
  @IsDefined({ message: 'language is required' })
  @Matches(LOCALE_PATTERN, { message: 'language must be a locale such as hi-IN or en-US' })
  @IsString({ message: 'language must be a string' })
  language: string;

  @ApiProperty(DOC.gender)
  @IsDefined({ message: 'gender is required' })
  @IsIn(VOICE_GENDERS as unknown as string[], {
    message: `gender must be one of ${VOICE_GENDERS.join(', ')}`,
  })
  gender: VoiceGender;

  @ApiProperty(DOC.preview_text)
  @IsDefined({ message: 'preview_text is required' })
  @Transform(trimString)
  @Length(1, L.previewTextMax, lengthRule('preview_text', L.previewTextMax))
  @IsString({ message: 'preview_text must be a string' })
  preview_text: string;
}

/** PATCH /admin/v1/voices/{id}: fields left out keep their values. Agents using the voice speak as it now says. */
export class UpdateCatalogVoiceDto {
  @ApiPropertyOptional(DOC.display_name)
  @IfPresent()
  @Transform(trimString)
  @Length(1, L.displayNameMax, lengthRule('display_name', L.displayNameMax))
  @IsString({ message: 'display_name must be a string' })
  display_name?: string;

  @ApiPropertyOptional(DOC.description)
  @IfPresent()
  @MaxLength(L.descriptionMax, { message: `description must be at most ${L.descriptionMax} characters` })
  @IsString({ message: 'description must be a string' })
  description?: string;

  @ApiPropertyOptional(DOC.provider)
  @IfPresent()
  @IsIn(TTS_PROVIDERS as unknown as string[], {
    message: `provider must be one of ${TTS_PROVIDERS.join(', ')}`,
  })
  provider?: TtsProviderName;

  @ApiPropertyOptional(DOC.model_name)
  @IfPresent()
  @Transform(trimString)
  @Length(1, L.modelNameMax, lengthRule('model_name', L.modelNameMax))
  @IsString({ message: 'model_name must be a string' })
  model_name?: string;

  @ApiPropertyOptional(DOC.tier)
  @IfPresent()
  @IsIn(VOICE_TIERS as unknown as string[], { message: `tier must be one of ${VOICE_TIERS.join(', ')}` })
  tier?: VoiceTier;

  @ApiPropertyOptional(DOC.provider_voice_id)
  @IfPresent()
  @Transform(trimString)
  @Length(1, L.providerVoiceIdMax, lengthRule('provider_voice_id', L.providerVoiceIdMax))
  @IsString({ message: 'provider_voice_id must be a string' })
  provider_voice_id?: string;

  @ApiPropertyOptional(DOC.speed)
  @IfPresent()
  @Min(L.speedMin, RANGE_SPEED)
  @Max(L.speedMax, RANGE_SPEED)
  @IsNumber(FINITE, { message: 'speed must be a number' })
  speed?: number;

  @ApiPropertyOptional(DOC.volume)
  @IfPresent()
  @Min(L.volumeMin, RANGE_VOLUME)
  @Max(L.volumeMax, RANGE_VOLUME)
  @IsNumber(FINITE, { message: 'volume must be a number' })
  volume?: number;

  @ApiPropertyOptional(DOC.language)
  @IfPresent()
  @Matches(LOCALE_PATTERN, { message: 'language must be a locale such as hi-IN or en-US' })
  @IsString({ message: 'language must be a string' })
  language?: string;

  @ApiPropertyOptional(DOC.gender)
  @IfPresent()
  @IsIn(VOICE_GENDERS as unknown as string[], {
    message: `gender must be one of ${VOICE_GENDERS.join(', ')}`,
  })
  gender?: VoiceGender;

  @ApiPropertyOptional(DOC.preview_text)
  @IfPresent()
  @Transform(trimString)
  @Length(1, L.previewTextMax, lengthRule('preview_text', L.previewTextMax))
  @IsString({ message: 'preview_text must be a string' })
  preview_text?: string;
}

export const CATALOG_VOICE_STATUSES = ['active', 'retired'] as const;
export type CatalogVoiceStatus = (typeof CATALOG_VOICE_STATUSES)[number];

/** GET /admin/v1/voices: every voice, retired ones included, optionally filtered. */
export class ListCatalogVoicesQueryDto {
  @ApiPropertyOptional({ enum: CATALOG_VOICE_STATUSES })
  @IsOptional()
  @IsIn(CATALOG_VOICE_STATUSES as unknown as string[], { message: 'status must be active or retired' })
  status?: CatalogVoiceStatus;

  @ApiPropertyOptional({ type: String, example: 'elevenlabs' })
  @IsOptional()
  @MaxLength(40, { message: 'provider must be at most 40 characters' })
  @IsString({ message: 'provider must be a string' })
  provider?: string;

  @ApiPropertyOptional({ enum: VOICE_TIERS })
  @IsOptional()
  @IsIn(VOICE_TIERS as unknown as string[], { message: `tier must be one of ${VOICE_TIERS.join(', ')}` })
  tier?: VoiceTier;
}

/** A catalog voice as the operator sees it: the partner's voice configuration, retired ones too. */
export class CatalogVoiceDto {
  @ApiProperty({ example: 'vc_5b1e3c52-8f0e-4d57-9a51-6a1f0e2b7c11', description: '`vc_` + the voice_id' })
  id: string;

  @ApiProperty({ format: 'uuid', description: 'What an agent takes as voice_id' })
  voice_id: string;

  @ApiProperty()
  display_name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ example: 'sarvam' })
  provider: string;

  @ApiProperty({ example: 'bulbul:v2' })
  model_name: string;

  @ApiProperty({ enum: VOICE_TIERS })
  tier: VoiceTier;

  @ApiProperty()
  provider_voice_id: string;

  @ApiProperty()
  speed: number;

  @ApiProperty()
  volume: number;

  @ApiProperty({ example: 'hi-IN' })
  language: string;

  @ApiProperty({ enum: VOICE_GENDERS })
  gender: VoiceGender;

  @ApiProperty()
  preview_text: string;

  @ApiProperty({
    enum: CATALOG_VOICE_STATUSES,
    description: 'retired: offered to no one; agents that have it keep it',
  })
  status: CatalogVoiceStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class CatalogVoiceListDto {
  @ApiProperty({ type: [CatalogVoiceDto] })
  voices: CatalogVoiceDto[];
}
