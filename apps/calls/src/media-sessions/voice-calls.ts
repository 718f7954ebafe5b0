import { DataSource } from 'typeorm';
import { AppError, isUuid } from '@vap/messages';
import { Call, carrierConnectionOf } from '../calls/entities/call.entity';
import { CallbackCall } from '../carriers/carrier-adapter';

/**
 * The call a voice command names. The voice service learns the partner only from calls.voice.attach, so
 * commands may come without one; one that names a partner must name the call's own (else, as for any
 * other account's call, 404).
 */
export async function findVoiceCall(
  dataSource: DataSource,
  callId: unknown,
  partnerId: string | null,
): Promise<Call> {
  const call = isUuid(callId)
    ? await dataSource.getRepository(Call).findOne({ where: { id: callId } })
    : null;
  if (!call || (partnerId && partnerId !== call.partnerId)) throw AppError.notFound('Call');
  return call;
}

/** The call as a carrier adapter's hang-up, transfer and signature checks need it. */
export function carrierCallOf(call: Call): CallbackCall {
  return {
    id: call.id,
    partnerId: call.partnerId,
    connectionId: carrierConnectionOf(call),
    providerCallId: call.providerCallId,
    carrierLegId: call.carrierLegId,
  };
}

/** A call row read with raw SQL (snake_case columns), as carrierCallOf gives an entity. */
export interface CarrierCallRow {
  id: string;
  partner_id: string;
  connection_id: string;
  provider_call_id: string | null;
  carrier_leg_id: string | null;
}

/** The carrier's view of a call row read with raw SQL: what carrierCallOf gives for an entity. */
export function carrierCallOfRow(row: CarrierCallRow): CallbackCall {
  return {
    id: row.id,
    partnerId: row.partner_id,
    connectionId: row.connection_id,
    providerCallId: row.provider_call_id,
    carrierLegId: row.carrier_leg_id,
  };
}
