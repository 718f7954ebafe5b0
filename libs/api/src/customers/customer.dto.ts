import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsObject, Matches, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { ErrorCode } from '@vap/messages';
import { CursorQueryDto, NextCursor } from '../pagination';
import { IfPresent, trimString } from '../validation';

export const CUSTOMER_STATUSES = ['ACTIVE', 'ARCHIVED'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

const code = (c: ErrorCode) => ({ context: { code: c } });

export class CreateCustomerDto {
  @ApiProperty({ minLength: 1, maxLength: 200, description: 'Your own identifier; unique on the account' })
  @IsString(code(ErrorCode.INVALID_EXTERNAL_ID))
  @Length(1, 200, {
    message: 'external_id must be 1 to 200 characters',
    ...code(ErrorCode.INVALID_EXTERNAL_ID),
  })
  @Matches(/\S/, { message: 'external_id must not be blank', ...code(ErrorCode.INVALID_EXTERNAL_ID) })
  external_id: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @Transform(trimString)
  @IsString(code(ErrorCode.INVALID_NAME))
  @Length(1, 200, { message: 'name must be 1 to 200 characters', ...code(ErrorCode.INVALID_NAME) })
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 254, format: 'email' })
  @IsOptional()
  @IsString(code(ErrorCode.INVALID_EMAIL))
  @MaxLength(254, { message: 'email must be at most 254 characters', ...code(ErrorCode.INVALID_EMAIL) })
  @IsEmail({}, { message: 'email must be an e-mail address', ...code(ErrorCode.INVALID_EMAIL) })
  email?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: 'Free-form key/value object',
  })
  @IsOptional()
  @IsObject({ message: 'metadata must be an object or null' })
  metadata?: Record<string, unknown> | null;
}

export class UpdateCustomerDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @Transform(trimString)
  @IfPresent()
  @IsString(code(ErrorCode.INVALID_NAME))
  @Length(1, 200, { message: 'name must be 1 to 200 characters', ...code(ErrorCode.INVALID_NAME) })
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 254, format: 'email' })
  @IsOptional()
  @IsString(code(ErrorCode.INVALID_EMAIL))
  @MaxLength(254, { message: 'email must be at most 254 characters', ...code(ErrorCode.INVALID_EMAIL) })
  @IsEmail({}, { message: 'email must be an e-mail address', ...code(ErrorCode.INVALID_EMAIL) })
  email?: string | null;

  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: true })
  @IsOptional()
  @IsObject({ message: 'metadata must be an object or null' })
  metadata?: Record<string, unknown> | null;

  @ApiPropertyOptional({
    enum: CUSTOMER_STATUSES,
    description: 'ARCHIVED archives the customer; ACTIVE restores it',
  })
  @IfPresent()
  @IsIn(CUSTOMER_STATUSES as unknown as string[], { message: 'status must be ACTIVE or ARCHIVED' })
  status?: CustomerStatus;
}

export class ListCustomersQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'Exact external_id' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  external_id?: string;

  @ApiPropertyOptional({ enum: CUSTOMER_STATUSES })
  @IsOptional()
  @IsIn(CUSTOMER_STATUSES as unknown as string[], { message: 'status must be ACTIVE or ARCHIVED' })
  status?: CustomerStatus;
}

export class CustomerDto {
  @ApiProperty({
    example: 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11',
    description: 'cus_ followed by a UUID',
  })
  id: string;

  @ApiProperty()
  external_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  email: string | null;

  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  metadata: Record<string, unknown> | null;

  @ApiProperty({ enum: CUSTOMER_STATUSES })
  status: CustomerStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class CustomerListDto {
  @ApiProperty({ type: [CustomerDto] })
  customers: CustomerDto[];

  @NextCursor()
  next_cursor: string | null;
}
