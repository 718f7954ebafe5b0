import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { ModelUsageDto } from '../calls/call.dto';
import { CursorQueryDto, NextCursor } from '../pagination';
import { OptionalOneOf } from '../validation';

/**
 * What moved a balance: a call's or browser session's charge, an operator's credit (top_up) or debit
 * (adjustment), a refund of a charge (none are written yet; the type is reserved so lists can filter by it),
 * a reseller's funding of a client (transfer: one entry in each account), or a reseller's margin on its
 * client's charge (resale).
 */
export const LEDGER_ENTRY_TYPES = ['charge', 'top_up', 'adjustment', 'refund', 'transfer', 'resale'] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

/** An ISO 8601 date or date-time (a zone, or UTC when it has none); Date reads it, Postgres gets Date's ISO form. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The from/to of a billing query, as ISO 8601 strings (checked against each other by the service). */
export function IsoInstant(field: string, description: string, required = false): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    Matches(ISO_DATE_TIME, { message: `${field} must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z` })(
      target,
      key,
    );
    IsString({ message: `${field} must be an ISO 8601 date-time` })(target, key);
    if (required) {
      ApiProperty({ format: 'date-time', description, example: '2026-01-01T00:00:00Z' })(target, key);
    } else {
      IsOptional()(target, key);
      ApiPropertyOptional({ format: 'date-time', description })(target, key);
    }
  };
}

/** GET /billing/transactions: newest first; every filter narrows the list. */
export class ListBillingTransactionsQueryDto extends CursorQueryDto {
  @IsoInstant('from', 'Only transactions created at or after this time')
  from?: string;

  @IsoInstant('to', 'Only transactions created before this time')
  to?: string;

  @OptionalOneOf(LEDGER_ENTRY_TYPES)
  type?: LedgerEntryType;
}

/** One change of the account's balance. Amounts are rupees, as GET /billing/balance gives the balance. */
export class BillingTransactionDto {
  @ApiProperty({ format: 'uuid', description: 'The transaction id' })
  id: string;

  @ApiProperty({
    enum: LEDGER_ENTRY_TYPES,
    description:
      'charge: a call or browser session was billed; top_up: credit added by the platform operator; ' +
      'adjustment: the operator lowered the balance; refund: a charge given back; transfer: a reseller funded ' +
      "one of its clients (negative in the reseller's ledger, positive in the client's); resale: a reseller's " +
      "margin on a client's charge (the client's price less the platform's, see docs/billing.md)",
  })
  type: LedgerEntryType;

  @ApiProperty({
    example: -12.5,
    description: 'Signed change of the balance in rupees: negative for a charge or a downward adjustment',
  })
  amount_inr: number;

  @ApiProperty({ example: 987.5, description: 'The balance in rupees right after this transaction' })
  balance_after_inr: number;

  @ApiProperty({ example: 'INR' })
  currency: 'INR';

  @ApiProperty({ example: 'Call charge: 95 s', description: 'What the transaction is, in words' })
  description: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The phone call a charge is for; null otherwise',
  })
  call_id: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The browser session a charge is for; null otherwise',
  })
  browser_session_id: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The agent of the call or session, where known',
  })
  agent_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The campaign that dialled the call, where it did',
  })
  campaign_id: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "The agent's project when the call started, where known",
  })
  project_id: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 95,
    description:
      'Seconds billed, for a charge (null for other types and charges made before it was recorded)',
  })
  billed_seconds: number | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['elevenlabs'],
    description:
      "For a charge: the cloud speech providers (recognition or synthesis) that served the call on the platform's " +
      "keys rather than the account's own, in name order; empty when it ran on offline engines or the account's " +
      'keys only (GET /calls/{id} platform_speech_providers, as it stood when the call was charged). null for ' +
      'other types and for charges made before it was recorded.',
  })
  platform_speech_providers: string[] | null;

  @ApiProperty({
    type: [ModelUsageDto],
    nullable: true,
    description:
      "For a charge: the call's model use, per model that wrote its lines (GET /calls/{id} model_usage, as it " +
      'stood when the call was charged): tokens and whose key answered. Recorded beside the charge, never priced ' +
      "apart: model use on the platform's keys is within the minute price. [] when no model wrote a line; null " +
      'for other types and for charges made before it was recorded.',
  })
  model_usage: ModelUsageDto[] | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      "In a reseller's ledger: the client account a transfer funded or a resale margin came from; null otherwise",
  })
  client_id: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class BillingTransactionListDto {
  @ApiProperty({ type: [BillingTransactionDto] })
  transactions: BillingTransactionDto[];

  @NextCursor()
  next_cursor: string | null;
}
