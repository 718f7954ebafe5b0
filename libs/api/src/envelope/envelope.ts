import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCode, ErrorDetail } from '@vap/messages';

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
}

export interface ErrorEnvelope {
  success: false;
  error: {
    code: ErrorCode;
    message: string;
    details?: ErrorDetail[];
    retry_at?: string;
    request_id?: string;
  };
}

export function ok<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}

export class ErrorDetailDto {
  @ApiProperty({ example: 'email' })
  field: string;

  @ApiProperty({ example: 'email must be an email' })
  message: string;
}

export class ErrorBodyDto {
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode', example: ErrorCode.VALIDATION_ERROR })
  code: ErrorCode;

  @ApiProperty({ example: 'Invalid request: email: email must be an email' })
  message: string;

  @ApiPropertyOptional({ type: [ErrorDetailDto], description: 'Per-field problems (validation errors only)' })
  details?: ErrorDetailDto[];

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'When the request may succeed if sent again (OUTSIDE_CALLING_WINDOW: the window opens; FREQUENCY_CAP_REACHED: the cap allows a call; SMS_LIMIT_REACHED: the daily cap allows a message); also sent as Retry-After seconds',
  })
  retry_at?: string;

  @ApiPropertyOptional({ description: 'The X-Request-Id of the failed request, for support' })
  request_id?: string;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ enum: [false] })
  success: false;

  @ApiProperty({ type: ErrorBodyDto })
  error: ErrorBodyDto;
}
