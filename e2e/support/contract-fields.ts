/**
 * Field lists copied from the contract's payload tables, so specs check the platform against the
 * document rather than against its own code.
 */

/** Every field of call.status.updated `data`, sorted. */
export const CALL_STATUS_UPDATED_FIELDS = [
  'call_id',
  'session_id',
  'agent_id',
  'agent_name',
  'client_reference_id',
  'direction',
  'from_number',
  'to_number',
  'status',
  'disposition',
  'answered_by',
  'hangup_cause',
  'hangup_source',
  'previous_status',
  'terminal',
  'concurrency_released',
  'account_concurrency',
  'provider',
  'provider_status',
  'provider_event',
  'occurred_at',
].sort();

/** The fields the contract names for session.completed `data` (it carries more). */
export const SESSION_COMPLETED_FIELDS = [
  'session_id',
  'agent_id',
  'agent_name',
  'duration_seconds',
  'credits_used',
  'processing_complete',
  'pipeline_completed_at',
  'transcript',
];
