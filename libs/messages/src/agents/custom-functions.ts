// A partner's custom function as a call sees it, and the command that runs one. The agents service owns the
// functions (their sealed headers and signing secrets never leave it) and makes every request to the partner;
// the voice service offers the function to the model and asks the agents service to run it.

/** A function's request time, default, floor and ceiling (`timeout_ms`). */
export const CUSTOM_FUNCTION_DEFAULT_TIMEOUT_MS = 10_000;
export const CUSTOM_FUNCTION_MIN_TIMEOUT_MS = 1_000;
export const CUSTOM_FUNCTION_MAX_TIMEOUT_MS = 120_000;

/** A request time within the floor and the ceiling: what an invocation is given, whoever asks for it. */
export function boundedFunctionTimeoutMs(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs)) return CUSTOM_FUNCTION_DEFAULT_TIMEOUT_MS;
  return Math.min(
    Math.max(Math.round(timeoutMs), CUSTOM_FUNCTION_MIN_TIMEOUT_MS),
    CUSTOM_FUNCTION_MAX_TIMEOUT_MS,
  );
}
/** The default wait before `on_delay` is spoken (`delay_ms`). */
export const CUSTOM_FUNCTION_DEFAULT_DELAY_MS = 2_000;
/** Bytes of the partner's answer read at most; the excerpt the model gets is cut to this. */
export const CUSTOM_FUNCTION_MAX_RESPONSE_BYTES = 16_384;
/** Partner function calls the model may make in one caller turn, and in one call. */
export const CUSTOM_FUNCTION_CALLS_PER_TURN = 4;
export const CUSTOM_FUNCTION_CALLS_PER_CALL = 30;
/**
 * Extra time the voice service allows a custom_function.invoke beyond the function's timeout_ms (the agents
 * service's own work and retries' spacing; it answers `timeout` itself when the partner is slow).
 */
export const CUSTOM_FUNCTION_INVOKE_MARGIN_MS = 5_000;

/** What the agent says around a function: static text, or null to leave it to the model (or say nothing). */
export interface CustomFunctionSpeech {
  /** Said as the request leaves. */
  on_start: string | null;
  /** Said once when the request has run `delay_ms` without an answer. */
  on_delay: string | null;
  delay_ms: number;
  /** Said when the request fails (non-2xx, timeout, refused address); null: the model words it. */
  on_failure: string | null;
}

/**
 * A custom function as the agents service hands it to a call when the call starts (agents.agent.for_call): what
 * the model is offered and how the conversation behaves around it. No url, headers or secret.
 */
export interface CustomFunctionSpec {
  id: string;
  /** Model-facing name, unique per account, never a built-in tool's name. */
  name: string;
  description: string;
  /** A JSON Schema object (validated as a schema when saved), offered to the model as the tool's parameters. */
  parameters: Record<string, unknown>;
  timeout_ms: number;
  speech: CustomFunctionSpeech;
  /** The call goes on while the request runs; the result comes back into the conversation when it arrives. */
  async: boolean;
}

/** What the agent says around a function, as a call's agent snapshot carries it: camelCase. */
export interface CustomFunctionSpeechSnapshot {
  onStart: string | null;
  onDelay: string | null;
  delayMs: number;
  onFailure: string | null;
}

/**
 * A custom function as copied into a call's AgentSnapshot when the call starts (edits during the call change
 * nothing): the spec, camelCase. Its timeoutMs is the one the call's requests are given.
 */
export interface CustomFunctionSnapshot {
  id: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  timeoutMs: number;
  speech: CustomFunctionSpeechSnapshot;
  async: boolean;
}

export function customFunctionSnapshotOf(spec: CustomFunctionSpec): CustomFunctionSnapshot {
  return {
    id: spec.id,
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    timeoutMs: spec.timeout_ms,
    speech: {
      onStart: spec.speech.on_start,
      onDelay: spec.speech.on_delay,
      delayMs: spec.speech.delay_ms,
      onFailure: spec.speech.on_failure,
    },
    async: spec.async,
  };
}

/** Who the request is made for: carried to the partner beside the arguments, and kept on the log entry. */
export interface PartnerRequestCallContext {
  /** The call's id (a browser session is a call of kind browser: its id is here too). */
  callId: string;
  /** The browser session id when the call is a browser session. */
  browserSessionId: string | null;
  agentId: string;
  direction: 'inbound' | 'outbound' | 'browser';
  fromNumber: string | null;
  toNumber: string | null;
  variables: Record<string, unknown>;
  /** The customer (sub-tenant) the call is for, when it names one: whose connections its functions may use. */
  customerId?: string | null;
}

/** agents.custom_function.invoke: run one of the partner's functions for a call. */
export interface CustomFunctionInvokeRequest {
  partnerId: string;
  functionId: string;
  /** The model's arguments, parsed; validated against the function's schema before anything is sent. */
  arguments: unknown;
  context: PartnerRequestCallContext;
  /**
   * The function's timeout as the call's snapshot holds it (`timeoutMs`, taken once, when the call started): the agents
   * service gives the request exactly this (within the floor and ceiling), whatever the row says now, so the
   * voice service's wait and the request's deadline come from one value.
   */
  timeoutMs: number;
}

export type CustomFunctionOutcome =
  /** 2xx from the partner. */
  | 'success'
  /** The arguments broke the schema: nothing was sent. `error` says what to fix. */
  | 'invalid_arguments'
  /** The partner answered a non-2xx status. */
  | 'http_error'
  /** No answer within timeout_ms. */
  | 'timeout'
  /** The address is private or unreachable, or the connection failed. */
  | 'refused'
  /** The function no longer exists (deleted during the call). */
  | 'not_found'
  /**
   * The function authenticates with the call's customer's connection, and there is none to use: the call has no
   * customer, the customer never connected, or the connection was disconnected, revoked or could not be
   * refreshed. Nothing was sent; `error` says which.
   */
  | 'not_connected';

export interface CustomFunctionInvokeReply {
  outcome: CustomFunctionOutcome;
  /** The partner's HTTP status, when it answered. */
  status: number | null;
  latencyMs: number;
  /** What the model is given: the answer's body (JSON or text), at most CUSTOM_FUNCTION_MAX_RESPONSE_BYTES. */
  result: string;
  /** Set on failure: a short reason the model may act on (which fields broke the schema, the status, ...). */
  error: string | null;
  /** The function's response_variables applied to a JSON answer (only those that matched), on success. */
  variables: Record<string, unknown>;
  /** The integration log entry of the request (null when nothing was sent). */
  logId: string | null;
}
