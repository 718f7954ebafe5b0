import { ApiProperty } from '@nestjs/swagger';

export const BACKGROUND_AUDIO_CATEGORIES = ['ambience', 'music'] as const;
export type BackgroundAudioCategory = (typeof BACKGROUND_AUDIO_CATEGORIES)[number];

/** A looped background sound an agent can play under its voice. */
export class BackgroundAudioDto {
  @ApiProperty({ format: 'uuid', description: 'Use as background_audio_id on an agent' })
  id: string;

  @ApiProperty({ example: 'Office ambience' })
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ enum: BACKGROUND_AUDIO_CATEGORIES })
  category: BackgroundAudioCategory;

  @ApiProperty({ description: 'Length of the loop in seconds' })
  duration_secs: number;

  @ApiProperty({ example: 0.3, description: 'Volume used when an agent sets none' })
  default_volume: number;
}

export class BackgroundAudioListDto {
  @ApiProperty({ type: [BackgroundAudioDto] })
  background_audio: BackgroundAudioDto[];
}
