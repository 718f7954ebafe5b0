// What a call keeps of a transfer, cold or warm, and what call.transferred says of it: one shape for both kinds.
import { CallTransfer, CallTransferLeg, CallTransferredData, TransferLegStatus } from '@vap/messages';
import { Call } from '../../calls/entities/call.entity';

/** The number the call shows its caller, the platform's: a human's leg is dialled from it. */
export function platformNumberOf(call: Pick<Call, 'direction' | 'fromNumber' | 'toNumber'>): string {
  return call.direction === 'outbound' ? call.fromNumber : call.toNumber;
}

/** The caller's leg of a transfer: the call's own carrier leg, answered when the call started. */
export function callerLeg(call: Call, status: TransferLegStatus): CallTransferLeg {
  return {
    role: 'caller',
    carrier_call_id: call.carrierLegId ?? call.providerCallId,
    from_number: call.fromNumber,
    to_number: call.toNumber,
    status,
    started_at: call.startedAt?.toISOString() ?? null,
    answered_at: call.startedAt?.toISOString() ?? null,
    ended_at: null,
  };
}

/** call.transferred's data for a call and its (settled) transfer. */
export function transferredData(call: Call, transfer: CallTransfer): CallTransferredData {
  return {
    call_id: call.id,
    session_id: call.sessionId,
    agent_id: call.agentId,
    agent_name: call.agentName,
    client_reference_id: call.clientReferenceId,
    direction: call.direction,
    from_number: call.fromNumber,
    to_number: call.toNumber,
    transfer_to: transfer.to_number,
    transfer_type: transfer.transfer_type,
    reason: transfer.reason,
    outcome: transfer.outcome ?? 'failed',
    requested_at: transfer.requested_at,
    answered_at: transfer.answered_at,
    bridged_at: transfer.bridged_at,
    legs: transfer.legs,
    provider: call.provider,
    occurred_at: new Date().toISOString(),
  };
}
