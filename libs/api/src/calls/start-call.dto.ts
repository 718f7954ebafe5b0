import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { E164_PATTERN } from '../validation';

const E164_MESSAGE = 'must be an E.164 number such as +919876543210';

export class StartCallDto {
  @ApiProperty({ format: 'uuid', description: 'The agent that talks on the call; a deleted agent is 404' })
  @IsUUID(undefined, { message: 'agent_id must be an agent id (UUID)' })
  agent_id: string;

  @ApiProperty({
    example: '+919876543210',
    description:
      'Callee, E.164. On the sandbox carrier the last two digits pick the outcome: 01 no answer, 02 busy, ' +
      '03 failed, 04 voicemail, 05 hangs up without speaking, 06 puts the call on hold, 07 talks until ' +
      'max_call_duration_secs, 08 asks for a human (transfer), anything else a short conversation.',
  })
  @IsString({ message: `to_number ${E164_MESSAGE}` })
  @Matches(E164_PATTERN, { message: `to_number ${E164_MESSAGE}` })
  to_number: string;

  @ApiPropertyOptional({
    example: '+15550001234',
    description:
      "Caller ID: one of the account's phone numbers. Omit both this and phone_number_id for the default from-number.",
  })
  @ValidateIf((o: StartCallDto) => o.from_number !== undefined)
  @IsString({ message: `from_number ${E164_MESSAGE}` })
  @Matches(E164_PATTERN, { message: `from_number ${E164_MESSAGE}` })
  from_number?: string;

  @ApiPropertyOptional({
    example: 'pn_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11',
    description: 'Caller ID by phone number id (instead of from_number)',
  })
  @ValidateIf((o: StartCallDto) => o.phone_number_id !== undefined)
  @IsString({ message: 'phone_number_id must be a phone number id' })
  @Length(1, 100, { message: 'phone_number_id must be a phone number id' })
  phone_number_id?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { customer_name: 'Asha', order_id: 'A-1001' },
    description: 'Pre-call variables: kept on the session, usable as {{name}} in the intro message',
  })
  @IsOptional()
  @IsObject({ message: 'variables must be an object' })
  variables?: Record<string, unknown>;

  @ApiPropertyOptional({
    maxLength: 200,
    description: 'Your correlation key; echoed in every call.status.updated event',
  })
  @IsOptional()
  @IsString({ message: 'client_reference_id must be a string' })
  @MaxLength(200, { message: 'client_reference_id must be at most 200 characters' })
  client_reference_id?: string;

  @ApiPropertyOptional({
    example: 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11',
    description:
      'The customer (sub-tenant) the call is for: one of the account’s customers (else 404 NOT_FOUND), not ' +
      'archived (409 INVALID_STATE). Its ' +
      'connections are what custom functions with auth customer_connection use during the call',
  })
  @IsOptional()
  @IsString({ message: 'customer_id must be a customer id' })
  @Matches(/^cus_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: 'customer_id must be a customer id (cus_<uuid>)',
  })
  customer_id?: string;
}
