/**
 * Every error code a partner can receive. The contract's codes come first; the rest cover cases the
 * contract leaves open and are documented in the OpenAPI output.
 */
export enum ErrorCode {
  VALIDATION_ERROR = 'VALIDATION_ERROR',
  INVALID_EXTERNAL_ID = 'INVALID_EXTERNAL_ID',
  INVALID_NAME = 'INVALID_NAME',
  INVALID_EMAIL = 'INVALID_EMAIL',
  UNAUTHORIZED = 'UNAUTHORIZED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  EXTRACTION_KEY_CLASH = 'EXTRACTION_KEY_CLASH',
  LABEL_TAKEN = 'LABEL_TAKEN',
  NO_AGENT_ENDPOINT = 'NO_AGENT_ENDPOINT',
  LIMIT_REACHED = 'LIMIT_REACHED',
  RATE_LIMITED = 'RATE_LIMITED',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
  INVALID_STATE = 'INVALID_STATE',
  WRITE_CONFLICT = 'WRITE_CONFLICT',
  // Not fixed by the contract; chosen here and documented.
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  INSUFFICIENT_BALANCE = 'INSUFFICIENT_BALANCE',
  DEFAULT_FROM_NUMBER = 'DEFAULT_FROM_NUMBER',
  CALLER_ID_INACTIVE = 'CALLER_ID_INACTIVE',
  NO_CONTACTS = 'NO_CONTACTS',
  DO_NOT_CALL = 'DO_NOT_CALL',
  OUTSIDE_CALLING_WINDOW = 'OUTSIDE_CALLING_WINDOW',
  FREQUENCY_CAP_REACHED = 'FREQUENCY_CAP_REACHED',
  SMS_DESTINATION_BLOCKED = 'SMS_DESTINATION_BLOCKED',
  SMS_COUNTRY_NOT_ALLOWED = 'SMS_COUNTRY_NOT_ALLOWED',
  SMS_LIMIT_REACHED = 'SMS_LIMIT_REACHED',
}

function assertUnreachable(value: never): never {
  throw new Error(`unmapped error code: ${String(value)}`);
}

/** The HTTP status of each code. Exhaustive: a new code that nobody mapped does not compile. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.VALIDATION_ERROR:
    case ErrorCode.INVALID_EXTERNAL_ID:
    case ErrorCode.INVALID_NAME:
    case ErrorCode.INVALID_EMAIL:
      return 400;
    case ErrorCode.UNAUTHORIZED:
      return 401;
    case ErrorCode.FORBIDDEN:
    case ErrorCode.INSUFFICIENT_BALANCE:
    case ErrorCode.SMS_DESTINATION_BLOCKED:
    case ErrorCode.SMS_COUNTRY_NOT_ALLOWED:
      return 403;
    case ErrorCode.NOT_FOUND:
      return 404;
    case ErrorCode.CONFLICT:
    case ErrorCode.EXTRACTION_KEY_CLASH:
    case ErrorCode.LABEL_TAKEN:
    case ErrorCode.NO_AGENT_ENDPOINT:
    case ErrorCode.INVALID_STATE:
    case ErrorCode.WRITE_CONFLICT:
    case ErrorCode.DEFAULT_FROM_NUMBER:
    case ErrorCode.CALLER_ID_INACTIVE:
    case ErrorCode.NO_CONTACTS:
    case ErrorCode.DO_NOT_CALL:
    case ErrorCode.OUTSIDE_CALLING_WINDOW:
      return 409;
    case ErrorCode.PAYLOAD_TOO_LARGE:
      return 413;
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
      return 415;
    case ErrorCode.LIMIT_REACHED:
    case ErrorCode.RATE_LIMITED:
    case ErrorCode.FREQUENCY_CAP_REACHED:
    case ErrorCode.SMS_LIMIT_REACHED:
      return 429;
    case ErrorCode.INTERNAL_ERROR:
      return 500;
    default:
      return assertUnreachable(code);
  }
}

/** One line per code, used in the OpenAPI description so partners can branch on codes. */
export const ERROR_CODE_DESCRIPTIONS: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'A required field is missing or a value is invalid; details name the fields.',
  INVALID_EXTERNAL_ID: 'Customer external_id missing or not 1..200 characters.',
  INVALID_NAME: 'Customer name missing or not 1..200 characters.',
  INVALID_EMAIL: 'Customer email longer than 254 characters or not an e-mail address.',
  UNAUTHORIZED: 'Missing or invalid API key.',
  FORBIDDEN:
    'Valid credentials without permission: partner suspended or not yet approved, or the API key lacks the scope the route needs (the message names it).',
  NOT_FOUND: 'Resource absent, owned by another account, or deleted; also unknown routes.',
  CONFLICT: 'Duplicate unique value, or the resource is already in the requested state.',
  EXTRACTION_KEY_CLASH:
    "An extraction key name would be defined twice for an agent: an inline key already in the target set, or a key another of the agent's sets or its inline config already has.",
  LABEL_TAKEN: 'Webhook label already used on the account.',
  NO_AGENT_ENDPOINT: 'Fan-out flag set false while the agent has no enabled endpoint of its own.',
  LIMIT_REACHED: 'A concurrency or resource limit was reached.',
  RATE_LIMITED:
    'Rate limit exceeded (per API key; per session and account on the console; per client address on routes without either); retry after Retry-After seconds.',
  INTERNAL_ERROR: 'Unexpected server error (500) or a downstream service failed or timed out (502); retry.',
  INVALID_STATE: 'The action is not allowed in the resource’s current state.',
  WRITE_CONFLICT:
    'Another change to the same data (e.g. the same agent or extraction set) is in flight; nothing was changed, retry (HTTP 409).',
  PAYLOAD_TOO_LARGE: 'The request body exceeds the size limit.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body is not in a supported content type.',
  INSUFFICIENT_BALANCE: 'The account balance does not cover the operation (HTTP 403).',
  DEFAULT_FROM_NUMBER: 'A default from-number cannot be deleted.',
  CALLER_ID_INACTIVE: 'A caller ID of the campaign is no longer active.',
  NO_CONTACTS: 'The campaign has no contacts to dial.',
  DO_NOT_CALL:
    'The number is on the account’s do-not-call list (itself or a prefix of it); nothing was dialled (HTTP 409). GET /do-not-call/lookup says which entry.',
  OUTSIDE_CALLING_WINDOW:
    'The callee’s local time is outside the calling window; nothing was dialled (HTTP 409). error.retry_at (and Retry-After) says when the window opens.',
  FREQUENCY_CAP_REACHED:
    'The number has had max_attempts_per_day or max_attempts_per_7_days calls already; nothing was dialled (HTTP 429). error.retry_at (and Retry-After) says when a call is allowed again.',
  SMS_DESTINATION_BLOCKED:
    'The SMS recipient is in a premium-rate or satellite range (refused always), or in a range flagged for SMS fraud whose country the account has not listed in allowed_countries itself; nothing was sent (HTTP 403). GET /messages/policy.',
  SMS_COUNTRY_NOT_ALLOWED:
    'The SMS recipient’s country is not in the account’s allowed_countries (by default its own numbers’ countries and the platform’s list); nothing was sent (HTTP 403). PATCH /messages/policy adds it.',
  SMS_LIMIT_REACHED:
    'The account sent max_per_day messages in the last 24 hours, or the call sent max_per_call; nothing was sent (HTTP 429). error.retry_at (and Retry-After) says when the daily cap allows one.',
};
