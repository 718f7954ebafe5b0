import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { CursorQueryDto } from '../pagination';
import { CALL_DIRECTIONS, CALL_STATUSES, CallDirection, CallStatus } from '@vap/messages';

export class ListCallsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID(undefined, { message: 'agent_id must be a UUID' })
  agent_id?: string;

  @ApiPropertyOptional({ enum: CALL_STATUSES })
  @IsOptional()
  @IsIn(CALL_STATUSES, { message: `status must be one of ${CALL_STATUSES.join(', ')}` })
  status?: CallStatus;

  @ApiPropertyOptional({ enum: CALL_DIRECTIONS })
  @IsOptional()
  @IsIn(CALL_DIRECTIONS, { message: 'direction must be outbound or inbound' })
  direction?: CallDirection;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  client_reference_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only calls created at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'created_after must be an ISO 8601 date-time' })
  created_after?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only calls created before this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'created_before must be an ISO 8601 date-time' })
  created_before?: string;
}
