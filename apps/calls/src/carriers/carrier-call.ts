import { Call, carrierConnectionOf } from '../calls/entities/call.entity';
import { CallbackCall } from './carrier-adapter';

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
