import { ApiProperty } from '@nestjs/swagger';
import {
  VOICE_GENDERS,
  VOICE_AVAILABILITIES,
  VOICE_TIERS,
  VoiceAvailability,
  VoiceConfiguration,
  VoiceConfigurationList,
  VoiceGender,
  VoiceTier,
} from '@vap/messages';

/** How a voice is usable, as both voice lists say it. */
export const AVAILABILITY_DOC =
  'How this account can speak with the voice: account_key (its own key for the provider, POST ' +
  '/provider-credentials), platform (the platform’s key, for the account’s tier), offline (the offline engine’s ' +
  'own voice), development_stand_in (no key anywhere: a development deployment speaks it with the offline engine, ' +
  'not the provider’s voice). Voices the account cannot use are not listed.';

export class VoiceConfigurationDto implements VoiceConfiguration {
  @ApiProperty({
    example: 'vc_5b1e3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: '`vc_` followed by a UUID; that UUID is the voice_id to use on an agent',
  })
  id: string;

  @ApiProperty({ example: 'Anushka' })
  display_name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ example: 'sarvam' })
  provider: string;

  @ApiProperty({ example: 'bulbul:v2' })
  model_name: string;

  @ApiProperty({
    enum: VOICE_TIERS,
    description: 'Tier the voice belongs to; the list holds only tiers the account is entitled to',
  })
  tier: VoiceTier;

  @ApiProperty({ example: 'anushka' })
  provider_voice_id: string;

  @ApiProperty({ example: 1 })
  speed: number;

  @ApiProperty({ example: 1 })
  volume: number;

  @ApiProperty({ example: 'hi-IN', description: 'BCP 47 language tag' })
  language: string;

  @ApiProperty({ enum: VOICE_GENDERS })
  gender: VoiceGender;

  @ApiProperty()
  preview_text: string;

  @ApiProperty({ enum: ['active'] })
  status: 'active';

  @ApiProperty({ enum: VOICE_AVAILABILITIES, description: AVAILABILITY_DOC })
  availability: VoiceAvailability;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class VoiceConfigurationListDto implements VoiceConfigurationList {
  @ApiProperty({ type: [VoiceConfigurationDto] })
  voice_configurations: VoiceConfigurationDto[];
}
