import { Type } from 'class-transformer';
import {
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CallingWindowDto } from '../contact-policy/calling-window.dto';
import type { CallDto } from './call.dto';
import { StartCallDto } from './start-call.dto';

/**
 * The calls.call.start command: the request body, plus the partner's Idempotency-Key when it sent one.
 * The calls service keeps the key with the call it placed, so a retry with the same key and body gets
 * that call back whatever happened on the way (a gateway timeout or crash), and never dials twice.
 * A class, so that the calls service validates it like the gateway does, whoever sends it.
 */
/** Where a dial comes from when it is not POST /calls/start: the contact policy's decision log names it. */
export class StartCallOrigin {
  @IsString()
  @MaxLength(100)
  campaign_id: string;

  @IsString()
  @MaxLength(100)
  contact_id: string;

  /** The campaign's calling window when it overrides the account's; null or absent: the account's. */
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => CallingWindowDto)
  calling_window?: CallingWindowDto | null;

  /** The contact's own IANA zone (its timezone column), used when the number does not tell the zone. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string | null;
}

export class StartCallCommand extends StartCallDto {
  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,255}$/, { message: 'idempotency_key must be 1..255 printable ASCII characters' })
  idempotency_key?: string;

  /** Set by the campaigns service on its dials; the gateway never sends it. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => StartCallOrigin)
  origin?: StartCallOrigin;
}

export interface StartCallResult {
  call: CallDto;
  /** True when the key named a call placed earlier: this is that call, nothing was dialled now. */
  replayed: boolean;
}
