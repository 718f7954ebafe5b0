import { AccountConcurrency, CallStatus, CallStatusUpdatedData } from '@vap/messages';
import { isTerminalStatus, releasesConcurrency } from '../calls/call-status-machine';
import { Call } from '../calls/entities/call.entity';

/** The call.status.updated data of a call that just moved from `previous` to its current status. */
export function statusUpdatedData(
  call: Call,
  previous: CallStatus | null,
  concurrency: AccountConcurrency | null,
  occurredAt: Date,
): CallStatusUpdatedData {
  const terminal = isTerminalStatus(call.status);
  return {
    call_id: call.id,
    session_id: call.sessionId,
    agent_id: call.agentId,
    agent_name: call.agentName,
    client_reference_id: call.clientReferenceId,
    direction: call.direction,
    from_number: call.fromNumber,
    to_number: call.toNumber,
    status: call.status,
    disposition: terminal ? call.disposition : null,
    answered_by: call.answeredBy,
    hangup_cause: call.hangupCause,
    hangup_source: call.hangupSource,
    previous_status: previous,
    terminal,
    concurrency_released: releasesConcurrency(call.status),
    account_concurrency: concurrency,
    provider: call.provider,
    provider_status: call.providerStatus,
    provider_event: call.providerEvent,
    occurred_at: occurredAt.toISOString(),
  };
}
