import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { CursorQueryDto } from '../pagination';
import { AGENT_TYPES, AgentLimits, AgentType } from '@vap/messages';

export class ListAgentsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ enum: AGENT_TYPES })
  @IsOptional()
  @IsIn(AGENT_TYPES as unknown as string[], { message: 'agent_type must be inbound or outbound' })
  agent_type?: AgentType;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID(undefined, { message: 'project_id must be a UUID' })
  project_id?: string;

  @ApiPropertyOptional({
    maxLength: AgentLimits.searchMax,
    description: 'Case-insensitive substring of agent_name',
  })
  @IsOptional()
  @Length(1, AgentLimits.searchMax)
  @IsString()
  search?: string;
}
