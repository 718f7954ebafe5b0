import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Length,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { TOOL_ACK_MODES, ToolAckConfig, ToolAckMode } from '@vap/messages';
import { IfPresent } from '../validation';

/**
 * What the agent says while a tool (function call) runs, so the caller is not left in silence. Omitted
 * fields take their defaults; the object replaces the stored one as a whole.
 */
export class ToolAckConfigInputDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'false turns acknowledgements off (like null)',
  })
  @IfPresent()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    enum: TOOL_ACK_MODES,
    default: 'dynamic',
    description:
      'dynamic: the model phrases a short acknowledgement that fits the tool; static: one of `phrases` is spoken',
  })
  @IfPresent()
  @IsIn(TOOL_ACK_MODES as unknown as string[], { message: 'mode must be dynamic or static' })
  mode?: ToolAckMode;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 10,
    description:
      'Required with mode static (1..10 phrases of 1..200 chars, one picked at random); ignored with dynamic, where it may be empty',
    example: ['One moment please.', 'Let me check that for you.'],
  })
  @ValidateIf((o: ToolAckConfigInputDto, v) => v !== undefined || o.mode === 'static')
  @Length(1, 200, { each: true, message: 'phrases must each be 1 to 200 characters' })
  @ArrayMaxSize(10, { message: 'phrases must hold at most 10 phrases' })
  // An empty list is what a dynamic config reads back as, so a read-modify-write must pass.
  @ValidateBy({
    name: 'phrasesForStaticMode',
    validator: {
      validate: (v: unknown, args) =>
        (args?.object as ToolAckConfigInputDto).mode !== 'static' || (Array.isArray(v) && v.length > 0),
      defaultMessage: () => 'phrases must hold at least 1 phrase when mode is static',
    },
  })
  @IsString({ each: true })
  @IsArray({
    message: 'phrases must be an array of up to 10 strings (at least 1, required, when mode is static)',
  })
  phrases?: string[];

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 10000,
    default: 1000,
    description: 'Speak only when the tool has not answered after this many milliseconds',
  })
  @IfPresent()
  @Max(10000)
  @Min(0)
  @IsInt()
  delay_ms?: number;
}

export class ToolAckConfigDto implements ToolAckConfig {
  @ApiProperty()
  enabled: boolean;

  @ApiProperty({ enum: TOOL_ACK_MODES })
  mode: ToolAckMode;

  @ApiProperty({ type: [String], description: 'Empty for mode dynamic' })
  phrases: string[];

  @ApiProperty()
  delay_ms: number;
}
