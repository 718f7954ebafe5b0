import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { CursorQueryDto } from '../pagination';
import { ExtractionKeyDto, ExtractionKeyInputDto, ExtractionKeyList } from './extraction-key.dto';
import { ExtractionLimits } from './extraction-key-rules';
import { IfPresent, trimString } from '../validation';

export class CreateExtractionSetDto {
  @ApiProperty({ minLength: 1, maxLength: ExtractionLimits.setNameMax, description: 'Unique on the account' })
  @IsDefined({ message: 'name is required' })
  @Transform(trimString)
  @Length(1, ExtractionLimits.setNameMax, {
    message: `name must be 1 to ${ExtractionLimits.setNameMax} characters`,
  })
  @IsString()
  name: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ExtractionLimits.setDescriptionMax,
    default: '',
    description: 'Omitted or null: empty',
  })
  @IsOptional()
  @MaxLength(ExtractionLimits.setDescriptionMax)
  @IsString()
  description?: string | null;

  @ApiProperty({
    type: [ExtractionKeyInputDto],
    maxItems: ExtractionLimits.setKeysMax,
    description: 'Key names unique within the set',
  })
  @IsDefined({ message: 'keys is required' })
  @ExtractionKeyList(ExtractionLimits.setKeysMax)
  keys: ExtractionKeyInputDto[];
}

/** PATCH: omitted fields keep their values; keys, when sent, replace the whole list. */
export class UpdateExtractionSetDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: ExtractionLimits.setNameMax })
  @IfPresent()
  @Transform(trimString)
  @Length(1, ExtractionLimits.setNameMax, {
    message: `name must be 1 to ${ExtractionLimits.setNameMax} characters`,
  })
  @IsString()
  name?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ExtractionLimits.setDescriptionMax,
    description: 'null clears it',
  })
  @IsOptional()
  @MaxLength(ExtractionLimits.setDescriptionMax)
  @IsString()
  description?: string | null;

  @ApiPropertyOptional({ type: [ExtractionKeyInputDto], maxItems: ExtractionLimits.setKeysMax })
  @IfPresent()
  @ExtractionKeyList(ExtractionLimits.setKeysMax)
  keys?: ExtractionKeyInputDto[];
}

export class ListExtractionSetsQueryDto extends CursorQueryDto {}

export class AttachedAgentDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

export class ExtractionSetDto {
  @ApiProperty({
    example: 'exs_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: '`exs_` followed by a UUID',
  })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Empty string when none was given' })
  description: string;

  @ApiProperty({ type: [ExtractionKeyDto] })
  keys: ExtractionKeyDto[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: [AttachedAgentDto], description: 'Agents (not deleted) the set is attached to' })
  attached_agents: AttachedAgentDto[];

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Campaigns using the set (empty: campaigns choose their keys in the campaigns service)',
  })
  attached_campaigns: unknown[];

  @ApiProperty({
    type: [ExtractionKeyDto],
    description:
      'Inline keys dropped in favour of the set’s definition by POST /extraction-sets/from-agent with on_conflict keep_set_definition; otherwise empty',
  })
  dropped_inline_keys: ExtractionKeyDto[];
}

export class ExtractionSetListDto {
  @ApiProperty({ type: [ExtractionSetDto] })
  extraction_sets: ExtractionSetDto[];

  @ApiProperty({ type: String, nullable: true })
  next_cursor: string | null;
}

export class ExtractionSetDeletedDto {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: 'Extraction set deleted' })
  message: string;
}
