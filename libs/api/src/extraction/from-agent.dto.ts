import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, IsUUID, MaxLength, ValidateBy } from 'class-validator';
import { ExtractionLimits } from './extraction-key-rules';
import { IfPresent, trimString } from '../validation';

export const FROM_AGENT_ON_CONFLICT = ['keep_set_definition'] as const;
export type FromAgentOnConflict = (typeof FROM_AGENT_ON_CONFLICT)[number];

/** Refuses a body that sends both name and set_id, or neither. */
function ExactlyOneOfNameAndSetId() {
  return ValidateBy({
    name: 'exactlyOneOfNameAndSetId',
    validator: {
      validate: (_: unknown, args) => {
        const o = args?.object as { name?: unknown; set_id?: unknown };
        return (o.name !== undefined) !== (o.set_id !== undefined);
      },
      defaultMessage: () =>
        'send exactly one of name (create a new set) or set_id (merge into an existing set)',
    },
  });
}

/** name, when sent, is 1..100 characters. Not a ValidateIf: the exactly-one rule must also run when name is absent. */
function OptionalSetName() {
  return ValidateBy({
    name: 'optionalSetName',
    validator: {
      validate: (value: unknown) =>
        value === undefined ||
        (typeof value === 'string' && value.length >= 1 && value.length <= ExtractionLimits.setNameMax),
      defaultMessage: () => `name must be a string of 1 to ${ExtractionLimits.setNameMax} characters`,
    },
  });
}

/** POST /extraction-sets/from-agent. */
export class FromAgentDto {
  @ApiProperty({ format: 'uuid' })
  @IsDefined({ message: 'agent_id is required' })
  @IsUUID(undefined, { message: 'agent_id must be a UUID' })
  agent_id: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: ExtractionLimits.setNameMax,
    description: 'Creates a new set; exactly one of name or set_id',
  })
  @Transform(trimString)
  @ExactlyOneOfNameAndSetId()
  @OptionalSetName()
  name?: string;

  @ApiPropertyOptional({
    example: 'exs_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: 'Merges into this set; exactly one of name or set_id',
  })
  @IfPresent()
  @MaxLength(100)
  @IsString()
  set_id?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ExtractionLimits.setDescriptionMax,
    description: 'Used only when creating',
  })
  @IsOptional()
  @MaxLength(ExtractionLimits.setDescriptionMax)
  @IsString()
  description?: string | null;

  @ApiPropertyOptional({
    enum: FROM_AGENT_ON_CONFLICT,
    description:
      'Omitted: an inline key whose name is already in the set is a 409 EXTRACTION_KEY_CLASH. keep_set_definition: such inline keys are dropped and listed in dropped_inline_keys.',
  })
  @IfPresent()
  @IsIn(FROM_AGENT_ON_CONFLICT as unknown as string[], {
    message: 'on_conflict accepts only keep_set_definition',
  })
  on_conflict?: FromAgentOnConflict;
}
