import { IsOptional, Matches } from 'class-validator';
import type { CallDto } from './call.dto';
import { StartCallDto } from './start-call.dto';

/**
 * The calls.call.start command: the request body, plus the partner's Idempotency-Key when it sent one.
 * The calls service keeps the key with the call it placed, so a retry with the same key and body gets
 * that call back whatever happened on the way (a gateway timeout or crash), and never dials twice.
 * A class, so that the calls service validates it like the gateway does, whoever sends it.
 */
export class StartCallCommand extends StartCallDto {
  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,255}$/, { message: 'idempotency_key must be 1..255 printable ASCII characters' })
  idempotency_key?: string;
}

export interface StartCallResult {
  call: CallDto;
  /** True when the key named a call placed earlier: this is that call, nothing was dialled now. */
  replayed: boolean;
}
