import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { CursorQueryDto, NextCursor } from '../pagination';
import { E164_EXAMPLE, E164_PATTERN, OptionalOneOf, queryE164 } from '../validation';

/** The longest body a message takes: ten concatenated segments, as carriers bound a long SMS. */
export const MESSAGE_BODY_MAX_CHARS = 1600;
export const MESSAGE_ID_EXAMPLE = 'msg_3f1c9a52-7d4e-4b8a-9c1e-2a6b5d4c3e21';

/** The carriers a message can go out on: the account's connections. */
export const MESSAGE_CARRIERS = ['sandbox', 'carrier_a', 'carrier_b'] as const;
export type MessageCarrier = (typeof MESSAGE_CARRIERS)[number];

export const MESSAGE_DIRECTIONS = ['outbound', 'inbound'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/**
 * An outbound message: queued (accepted, waiting for the carrier) → sent (the carrier took it) → delivered,
 * undelivered (the carrier could not deliver it) or failed (the carrier refused it, or could not be reached).
 * An inbound message is received.
 */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'undelivered', 'failed', 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** Statuses a message no longer leaves. */
export const FINAL_MESSAGE_STATUSES: readonly MessageStatus[] = [
  'delivered',
  'undelivered',
  'failed',
  'received',
];

export class MessageDto {
  @ApiProperty({ example: MESSAGE_ID_EXAMPLE })
  id: string;

  @ApiProperty({ enum: MESSAGE_DIRECTIONS })
  direction: MessageDirection;

  @ApiProperty({ enum: MESSAGE_STATUSES })
  status: MessageStatus;

  @ApiProperty({ example: E164_EXAMPLE, description: 'Recipient' })
  to: string;

  @ApiProperty({
    example: '+14155550100',
    description: 'Sender: a number of the account for outbound messages',
  })
  from: string;

  @ApiProperty({ maxLength: MESSAGE_BODY_MAX_CHARS })
  body: string;

  @ApiProperty({
    minimum: 1,
    description:
      'SMS segments the body takes (GSM-7: 160 characters, 153 when split; otherwise UCS-2: 70, 67)',
  })
  segments: number;

  @ApiProperty({ enum: MESSAGE_CARRIERS, description: 'The connection the message went out or came in on' })
  carrier: MessageCarrier;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The carrier's id (carrier_b MessageSid, carrier_a message_uuid)",
  })
  carrier_message_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "failed or undelivered: the carrier's error code, or the platform's (carrier_refused, carrier_unreachable)",
  })
  error_code: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'failed or undelivered: what went wrong, in words',
  })
  error_message: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The call whose agent sent it (send_sms)',
  })
  call_id: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The agent that sent it during a call',
  })
  agent_id: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the carrier took it' })
  sent_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was delivered' })
  delivered_at: string | null;
}

/** POST /messages. */
export class SendMessageDto {
  @ApiProperty({ example: E164_EXAMPLE, description: 'Recipient, E.164' })
  @IsDefined({ message: 'to is required' })
  @IsString()
  @Matches(E164_PATTERN, { message: 'to must be an E.164 number such as +919876543210' })
  to: string;

  @ApiProperty({ minLength: 1, maxLength: MESSAGE_BODY_MAX_CHARS, example: 'Your appointment is at 10:30.' })
  @IsDefined({ message: 'body is required' })
  @IsString()
  @MinLength(1, { message: 'body must not be empty' })
  @MaxLength(MESSAGE_BODY_MAX_CHARS, { message: `body must be at most ${MESSAGE_BODY_MAX_CHARS} characters` })
  body: string;

  @ApiPropertyOptional({
    example: '+14155550100',
    description: "A number of the account (GET /phone-numbers); default the carrier connection's from_number",
  })
  @IsOptional()
  @IsString()
  @Matches(E164_PATTERN, { message: 'from must be an E.164 number such as +14155550100' })
  from?: string;

  @ApiPropertyOptional({
    enum: MESSAGE_CARRIERS,
    description: "The connection to send on; default the from number's, or the account's default number's",
  })
  @IsOptional()
  @IsIn(MESSAGE_CARRIERS as unknown as string[], {
    message: `carrier must be one of ${MESSAGE_CARRIERS.join(', ')}`,
  })
  carrier?: MessageCarrier;
}

export class ListMessagesQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ example: E164_EXAMPLE, description: 'Only messages to this number (+ as %2B)' })
  @IsOptional()
  @Transform(({ value }) => queryE164(value))
  @IsString()
  @Matches(E164_PATTERN, { message: 'to must be an E.164 number such as +919876543210' })
  to?: string;

  @ApiPropertyOptional({ example: '+14155550100', description: 'Only messages from this number (+ as %2B)' })
  @IsOptional()
  @Transform(({ value }) => queryE164(value))
  @IsString()
  @Matches(E164_PATTERN, { message: 'from must be an E.164 number such as +14155550100' })
  from?: string;

  @OptionalOneOf(MESSAGE_DIRECTIONS)
  direction?: MessageDirection;

  @OptionalOneOf(MESSAGE_STATUSES)
  status?: MessageStatus;
}

export class MessageListDto {
  @ApiProperty({ type: [MessageDto], description: 'Newest first' })
  messages: MessageDto[];

  @NextCursor()
  next_cursor: string | null;
}

/** POST /sandbox/inbound-messages: an SMS from someone to one of the account's numbers, on the sandbox carrier. */
export class SandboxInboundMessageDto {
  @ApiProperty({ example: '+15550001234', description: 'A number of the account (see GET /phone-numbers)' })
  @IsDefined({ message: 'to is required' })
  @IsString()
  @Matches(E164_PATTERN, { message: 'to must be an E.164 number such as +15550001234' })
  to: string;

  @ApiProperty({ example: '+918012345678', description: 'The simulated sender' })
  @IsDefined({ message: 'from is required' })
  @IsString()
  @Matches(E164_PATTERN, { message: 'from must be an E.164 number such as +918012345678' })
  from: string;

  @ApiProperty({ minLength: 1, maxLength: MESSAGE_BODY_MAX_CHARS, example: 'YES' })
  @IsDefined({ message: 'body is required' })
  @IsString()
  @MinLength(1, { message: 'body must not be empty' })
  @MaxLength(MESSAGE_BODY_MAX_CHARS, { message: `body must be at most ${MESSAGE_BODY_MAX_CHARS} characters` })
  body: string;
}
