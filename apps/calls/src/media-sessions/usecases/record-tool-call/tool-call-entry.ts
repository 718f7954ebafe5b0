import {
  AppError,
  TOOL_CALL_MAX_ARGUMENT_BYTES,
  TOOL_CALL_OUTCOMES,
  ToolCallEntry,
  VoiceToolCallRequest,
  IntegrationLogId,
} from '@vap/messages';

/** Bytes (as JSON) the variables one invocation sets may take; the agents service keeps them well under. */
export const TOOL_CALL_MAX_VARIABLE_BYTES = 16_384;
/** The kinds of tool GET /agent/{id}/tools lists, as the session's entries name them. */
const TOOL_CALL_KINDS: readonly ToolCallEntry['kind'][] = ['builtin', 'handoff', 'custom'];
/** A tool's name, as a model-facing function name can be. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Ids (function, log entry) are key-safe, bounded strings. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;

function invalid(field: string, message: string): AppError {
  return AppError.validation([{ field, message }]);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nullableId(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || !ID.test(value)) throw invalid(field, `${field} must be an id or null`);
  return value;
}

function wholeMs(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalid(field, `${field} must be a number of at least 0`);
  }
  return Math.round(value);
}

/**
 * The session's entry for one reported invocation: its fields checked, arguments larger than the session keeps
 * replaced by {} (arguments_truncated), started at `start` plus the media clock's atMs.
 */
/** The integration log entry's public id (`ilog_<uuid>`, what GET /integration-logs/{id} takes). */
function publicLogId(logId: string | null): string | null {
  return logId === null ? null : IntegrationLogId.format(logId);
}

export function toolCallEntry(request: VoiceToolCallRequest, start: Date): ToolCallEntry {
  if (typeof request.name !== 'string' || !TOOL_NAME.test(request.name)) {
    throw invalid('name', 'name must be a tool name');
  }
  if (!TOOL_CALL_KINDS.includes(request.kind)) {
    throw invalid('kind', `kind must be one of ${TOOL_CALL_KINDS.join(', ')}`);
  }
  if (!TOOL_CALL_OUTCOMES.includes(request.outcome)) {
    throw invalid('outcome', `outcome must be one of ${TOOL_CALL_OUTCOMES.join(', ')}`);
  }
  const args = request.arguments ?? {};
  if (!isPlainObject(args)) throw invalid('arguments', 'arguments must be an object');
  const truncated = Buffer.byteLength(JSON.stringify(args)) > TOOL_CALL_MAX_ARGUMENT_BYTES;
  const variables = request.variables ?? {};
  if (!isPlainObject(variables)) throw invalid('variables', 'variables must be an object');
  if (Buffer.byteLength(JSON.stringify(variables)) > TOOL_CALL_MAX_VARIABLE_BYTES) {
    throw invalid('variables', `variables must take at most ${TOOL_CALL_MAX_VARIABLE_BYTES} bytes`);
  }
  return {
    name: request.name,
    kind: request.kind,
    function_id: nullableId(request.functionId, 'functionId'),
    arguments: truncated ? {} : args,
    arguments_truncated: truncated,
    outcome: request.outcome,
    latency_ms: wholeMs(request.latencyMs, 'latencyMs'),
    log_id: publicLogId(nullableId(request.logId, 'logId')),
    timestamp: new Date(start.getTime() + wholeMs(request.atMs, 'atMs')).toISOString(),
    variables,
  };
}
