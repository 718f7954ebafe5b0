import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { CursorQueryDto, NextCursor } from '../pagination';
import { IfPresent } from '../validation';

export const ProjectLimits = {
  nameMax: 100,
  descriptionMax: 500,
  /** Projects per account, the default one included. */
  perAccount: 100,
} as const;

const NAME_DOC = { minLength: 1, maxLength: ProjectLimits.nameMax, example: 'Outbound sales' } as const;
const DESCRIPTION_DOC = {
  type: String,
  nullable: true,
  maxLength: ProjectLimits.descriptionMax,
  example: 'Agents and campaigns of the sales team',
} as const;
const NAME_RULE = { message: `name must be 1 to ${ProjectLimits.nameMax} characters` };
const DESCRIPTION_RULE = {
  message: `description must be at most ${ProjectLimits.descriptionMax} characters`,
};

export class CreateProjectDto {
  @ApiProperty(NAME_DOC)
  @IsDefined({ message: 'name is required' })
  @Length(1, ProjectLimits.nameMax, NAME_RULE)
  @IsString({ message: 'name must be a string' })
  name: string;

  @ApiPropertyOptional({ ...DESCRIPTION_DOC, description: 'Omitted or null: none' })
  @IsOptional()
  @MaxLength(ProjectLimits.descriptionMax, DESCRIPTION_RULE)
  @IsString({ message: 'description must be a string or null' })
  description?: string | null;
}

/** PATCH: omitted fields keep their values; the default project can be renamed too. */
export class UpdateProjectDto {
  @ApiPropertyOptional(NAME_DOC)
  @IfPresent()
  @Length(1, ProjectLimits.nameMax, NAME_RULE)
  @IsString({ message: 'name must be a string' })
  name?: string;

  @ApiPropertyOptional({ ...DESCRIPTION_DOC, description: 'null clears it' })
  @IsOptional()
  @MaxLength(ProjectLimits.descriptionMax, DESCRIPTION_RULE)
  @IsString({ message: 'description must be a string or null' })
  description?: string | null;
}

export class ListProjectsQueryDto extends CursorQueryDto {}

export class ProjectDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty(NAME_DOC)
  name: string;

  @ApiProperty({ ...DESCRIPTION_DOC })
  description: string | null;

  @ApiProperty({
    description:
      'The account’s default project: agents created without project_id go here; it cannot be deleted',
  })
  is_default: boolean;

  @ApiProperty({ minimum: 0, description: 'Live (not deleted) agents in the project, counted exactly' })
  agent_count: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class ProjectListDto {
  @ApiProperty({ type: [ProjectDto] })
  projects: ProjectDto[];

  @NextCursor()
  next_cursor: string | null;
}

export class ProjectDeletedDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Project deleted' })
  message: string;
}
