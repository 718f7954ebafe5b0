import { ApiProperty } from '@nestjs/swagger';
import {
  VOICE_GENDERS,
  VOICE_TIERS,
  VoiceConfiguration,
  VoiceConfigurationList,
  VoiceGender,
  VoiceTier,
} from '@vap/messages';

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

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class VoiceConfigurationListDto implements VoiceConfigurationList {
  @ApiProperty({ type: [VoiceConfigurationDto] })
  voice_configurations: VoiceConfigurationDto[];
}
