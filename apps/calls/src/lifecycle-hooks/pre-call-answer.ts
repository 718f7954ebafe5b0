import { LIFECYCLE_HOOK_LIMITS } from '@vap/api';

/** A valid pre_call answer, read. */
export interface PreCallVerdict {
  action: 'continue' | 'block';
  variables: Record<string, unknown>;
  reason: string | null;
}

const FIELDS = new Set(['action', 'variables', 'reason']);

/**
 * Reads a pre_call hook's 2xx answer: a JSON object with optional `action` (continue | block, default
 * continue), `variables` (an object) and `reason` (a string of at most 500 characters). An empty body is
 * `{}`. Unknown fields are refused, so that a typo (`"actoin": "block"`) does not let the call through
 * unnoticed: the hook's failure_action applies instead.
 */
export function readPreCallAnswer(body: string): PreCallVerdict | { invalid: string } {
  if (body.trim() === '') return { action: 'continue', variables: {}, reason: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { invalid: 'the answer is not JSON' };
  }
  if (!isObject(parsed)) return { invalid: 'the answer is not a JSON object' };
  const unknown = Object.keys(parsed).filter((k) => !FIELDS.has(k));
  if (unknown.length) return { invalid: `unknown field ${unknown[0]}` };
  const action = parsed.action ?? 'continue';
  if (action !== 'continue' && action !== 'block') return { invalid: 'action must be continue or block' };
  const variables = parsed.variables ?? {};
  if (!isObject(variables)) return { invalid: 'variables must be an object' };
  const reason = parsed.reason ?? null;
  if (reason !== null && typeof reason !== 'string') return { invalid: 'reason must be a string' };
  if (reason !== null && reason.length > LIFECYCLE_HOOK_LIMITS.reasonMaxChars)
    return { invalid: `reason must be at most ${LIFECYCLE_HOOK_LIMITS.reasonMaxChars} characters` };
  return { action, variables, reason: reason?.trim() || null };
}

/**
 * The call's variables after a continue answer: the hook's values override the start request's (or the
 * campaign contact's) of the same name, since the partner's system answers last, with what it knows now;
 * names the hook leaves out keep their values. (The answer's size bound bounds what the hook adds.)
 */
export function mergeHookVariables(
  call: Record<string, unknown>,
  hook: Record<string, unknown>,
): Record<string, unknown> {
  return { ...call, ...hook };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
