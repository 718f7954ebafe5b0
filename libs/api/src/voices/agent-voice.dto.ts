import { ApiProperty } from '@nestjs/swagger';
import {
  VOICE_AVAILABILITIES,
  VOICE_GENDERS,
  VOICE_TIERS,
  VoiceAvailability,
  VoiceGender,
  VoiceTier,
} from '@vap/messages';
import { AVAILABILITY_DOC } from './voice-configuration.dto';

/** An entry of the older agent voice list: what is needed to pick a voice for an agent. */
export class AgentVoiceDto {
  @ApiProperty({ format: 'uuid', description: 'Use as voice_id on an agent' })
  voice_id: string;

  @ApiProperty({ example: 'Anushka' })
  name: string;

  @ApiProperty({ enum: VOICE_GENDERS })
  gender: VoiceGender;

  @ApiProperty({ example: 'hi-IN' })
  language: string;

  @ApiProperty({ example: 'sarvam' })
  provider: string;

  @ApiProperty({ example: 'bulbul:v2' })
  model: string;

  @ApiProperty({ enum: VOICE_TIERS })
  tier: VoiceTier;

  @ApiProperty()
  description: string;

  @ApiProperty({ enum: VOICE_AVAILABILITIES, description: AVAILABILITY_DOC })
  availability: VoiceAvailability;
}

export class AgentVoiceListDto {
  @ApiProperty({ type: [AgentVoiceDto] })
  voices: AgentVoiceDto[];
}

/** The voice as summarised in an agent record. */
export class VoiceSummaryDto {
  @ApiProperty({ format: 'uuid', description: 'The voice_id' })
  id: string;

  @ApiProperty()
  display_name: string;

  @ApiProperty({ enum: VOICE_GENDERS })
  gender: VoiceGender;

  @ApiProperty({ example: 'en-IN' })
  language: string;

  @ApiProperty({ example: 'sarvam' })
  provider: string;
}
