import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { CursorQueryDto, NextCursor } from '../pagination';
import { E164_EXAMPLE, E164_PATTERN, OptionalOneOf } from '../validation';
import { TELEPHONY_PROVIDERS, TelephonyProvider } from './telephony-credentials.dto';

export const PHONE_NUMBER_ID_EXAMPLE = 'pn_0d7f4c1f-2b11-4a8e-9a55-3f0c6a0e6d0b';

export class ImportPhoneNumberDto {
  @ApiProperty({ example: E164_EXAMPLE, description: 'E.164 number, unique on the account' })
  @IsDefined({ message: 'number is required' })
  @IsString()
  @Matches(E164_PATTERN, { message: 'number must be an E.164 number such as +919876543210' })
  number: string;

  @ApiPropertyOptional({
    enum: TELEPHONY_PROVIDERS,
    description:
      'Carrier the number lives on; the account must have a connection for it. Give this or connection_id.',
  })
  @ValidateIf((o: ImportPhoneNumberDto) => o.provider !== undefined || o.connection_id === undefined)
  @IsIn(TELEPHONY_PROVIDERS as unknown as string[], {
    message: `provider must be one of ${TELEPHONY_PROVIDERS.join(', ')} (or give connection_id)`,
  })
  provider?: TelephonyProvider;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The carrier connection (see GET /config/telephony); needed when the provider has several',
  })
  @IsOptional()
  @IsUUID('all', { message: 'connection_id must be a UUID' })
  connection_id?: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'Support line' })
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'label must be at most 100 characters' })
  label?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Agent that answers inbound calls on this number' })
  @IsOptional()
  @IsUUID('all', { message: 'agent_id must be a UUID' })
  agent_id?: string;

  @ApiPropertyOptional({
    maxLength: 200,
    description:
      'Carrier application the number is assigned to; it is detached from it (best effort) when the number is deleted',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  application_id?: string;
}

/** PATCH /phone-numbers/{id}: the label and the agent answering inbound calls; null clears either. */
export class UpdatePhoneNumberDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsString({ message: 'label must be a string or null' })
  @MaxLength(100, { message: 'label must be at most 100 characters' })
  label?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Agent that answers inbound calls; null unassigns it',
  })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsUUID('all', { message: 'agent_id must be a UUID or null' })
  agent_id?: string | null;
}

export class ListPhoneNumbersQueryDto extends CursorQueryDto {
  @OptionalOneOf(TELEPHONY_PROVIDERS)
  provider?: TelephonyProvider;
}

export class PhoneNumberDto {
  @ApiProperty({ example: PHONE_NUMBER_ID_EXAMPLE, description: 'pn_ followed by a UUID' })
  id: string;

  @ApiProperty({ example: E164_EXAMPLE })
  number: string;

  @ApiProperty({ enum: TELEPHONY_PROVIDERS })
  provider: TelephonyProvider;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  connection_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  label: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Agent answering inbound calls' })
  agent_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  application_id: string | null;

  @ApiProperty({
    description: 'A connection’s default from-number; it cannot be deleted (409 DEFAULT_FROM_NUMBER)',
  })
  is_default: boolean;

  @ApiProperty({ enum: ['active', 'inactive'], description: 'inactive while its connection is inactive' })
  status: 'active' | 'inactive';

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

export class PhoneNumberListDto {
  @ApiProperty({ type: [PhoneNumberDto] })
  phone_numbers: PhoneNumberDto[];

  @NextCursor()
  next_cursor: string | null;
}

export class PhoneNumberDeletedDto {
  @ApiProperty({ example: PHONE_NUMBER_ID_EXAMPLE })
  id: string;

  @ApiProperty({ example: true })
  deleted: true;

  @ApiProperty({
    description: 'Whether the number was detached from its carrier application (null: it had none)',
    type: Boolean,
    nullable: true,
  })
  detached: boolean | null;

  @ApiProperty({ example: 'Phone number deleted' })
  message: string;
}
