/*
 * The browser session's text messages (JSON), as the voice app sends and takes them, and the live
 * transcript the client keeps from them. Free of browser APIs so that Node specs run it as is.
 */

export type Role = 'user' | 'agent';

export interface TranscriptLine {
  role: Role;
  text: string;
  /** False while the line is still being heard (interim words of the user); true once it is settled. */
  final: boolean;
}

export type ServerMessage =
  | { type: 'session.started'; session_id: string }
  | { type: 'mark'; name: string }
  | { type: 'clear' }
  /** `typed`: the user's line came from sendText (a line of its own, never an update of a spoken one). */
  | { type: 'transcript'; role: Role; text: string; final: boolean; typed?: boolean }
  | { type: 'agent.speaking'; speaking: boolean }
  | ({ type: 'tool' } & ToolNotice)
  | { type: 'speech'; stt: string; tts: string; warning?: string }
  | { type: 'session.ended'; reason: string }
  /** A message of the client's the platform did not take (a typed line too long or too frequent). */
  | { type: 'error'; code: string; message: string };

/** A tool the agent runs: its arguments while running, its outcome and duration once done. */
export interface ToolNotice {
  name: string;
  status: 'running' | 'done';
  /** running: the model's arguments (`{}` with `arguments_truncated` when too large to show). */
  arguments?: Record<string, unknown>;
  arguments_truncated?: boolean;
  /** done: success, failed, http_error, timeout, ... (as the session's tool calls record it), or pending. */
  outcome?: string;
  latency_ms?: number;
}

export type ClientMessage =
  | { type: 'played'; name: string }
  | { type: 'end' }
  | { type: 'mute'; muted: boolean }
  | { type: 'user_text'; text: string }
  | { type: 'typing' };

/** `typing` is sent at most once in this many ms: enough to keep the agent from asking whether anyone is there. */
export const TYPING_INTERVAL_MS = 2000;

/** A typed line holds at most this many characters (the platform answers a longer one with an error). */
export const USER_TEXT_MAX_CHARS = 1000;

/**
 * The typed line as sent: trimmed, or null when it is empty or longer than USER_TEXT_MAX_CHARS characters
 * (counted as a person would: an emoji is one).
 */
export function typedLine(text: string): string | null {
  const line = typeof text === 'string' ? text.trim() : '';
  if (!line) return null;
  let count = 0;
  for (const _ of line) if (++count > USER_TEXT_MAX_CHARS) return null;
  return line;
}

/**
 * Why the platform refused the connection, from the close it sent (code 4401-4503, the cause as the reason),
 * in words a person can act on; null for a close that is no refusal. `origin`: the page's own.
 */
export function describeRefusal(code: number, reason: string, origin: string): string | null {
  if (code < 4000 || code > 4999) return null;
  switch (reason) {
    case 'token_expired':
      return "The session's connect_url expired before the page connected. Create a new session when the user asks to talk, and connect right away.";
    case 'token_used':
      return "The session's connect_url was used already: each one connects once. Create a new session to talk again.";
    case 'token_invalid':
      return "The connect_url's token is not valid for this session (it was changed, or belongs to another session).";
    case 'origin_not_allowed':
      return `This page's origin ${origin} is not in the session's allowed_origins. Add it when your server creates the session.`;
    case 'account_restricted':
      return 'The account that created this session may not run sessions right now.';
    case 'session_not_found':
      return 'There is no such session: check the connect_url your server returned.';
    case 'session_ended':
      return 'This session has ended. Create a new session to talk again.';
    case 'capacity':
      return 'The voice service is full right now. Try again in a moment.';
    case 'unavailable':
      return 'The voice service is unavailable right now. Try again in a moment.';
    default:
      return `The voice session was refused (${code}${reason ? ` ${reason}` : ''}).`;
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';

/** A server text message, or null for anything malformed or of a type this client does not know. */
export function parseServerMessage(text: string): ServerMessage | null {
  let m: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    m = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  switch (m.type) {
    case 'session.started':
      return isString(m.session_id) ? { type: 'session.started', session_id: m.session_id } : null;
    case 'mark':
      return isString(m.name) ? { type: 'mark', name: m.name } : null;
    case 'clear':
      return { type: 'clear' };
    case 'transcript':
      return (m.role === 'user' || m.role === 'agent') && isString(m.text)
        ? {
            type: 'transcript',
            role: m.role,
            text: m.text,
            final: m.final !== false,
            ...(m.typed === true ? { typed: true } : {}),
          }
        : null;
    case 'agent.speaking':
      return isBool(m.speaking) ? { type: 'agent.speaking', speaking: m.speaking } : null;
    case 'tool': {
      if (!isString(m.name) || (m.status !== 'running' && m.status !== 'done')) return null;
      const args = m.arguments;
      return {
        type: 'tool',
        name: m.name,
        status: m.status,
        ...(args && typeof args === 'object' && !Array.isArray(args)
          ? { arguments: args as Record<string, unknown> }
          : {}),
        ...(m.arguments_truncated === true ? { arguments_truncated: true } : {}),
        ...(isString(m.outcome) ? { outcome: m.outcome } : {}),
        ...(typeof m.latency_ms === 'number' && Number.isFinite(m.latency_ms)
          ? { latency_ms: m.latency_ms }
          : {}),
      };
    }
    case 'error':
      return isString(m.code)
        ? { type: 'error', code: m.code, message: isString(m.message) ? m.message : '' }
        : null;
    case 'speech':
      return isString(m.stt) && isString(m.tts)
        ? { type: 'speech', stt: m.stt, tts: m.tts, ...(isString(m.warning) ? { warning: m.warning } : {}) }
        : null;
    case 'session.ended':
      return { type: 'session.ended', reason: isString(m.reason) ? m.reason : 'ended' };
    default:
      return null;
  }
}

/**
 * Applies a transcript message to the live lines: an interim line of a role is replaced by the next message
 * of that role (interim or final) until a final one settles it; a final line after a settled one is a new
 * line. Returns the line added or updated.
 */
export function applyTranscript(
  lines: TranscriptLine[],
  message: { role: Role; text: string; final: boolean; typed?: boolean },
): TranscriptLine {
  // A typed line is one of its own: the words the user may be speaking meanwhile stay their own line.
  if (message.typed) {
    const typed: TranscriptLine = { role: message.role, text: message.text, final: true };
    lines.push(typed);
    return typed;
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.role === message.role && !line.final) {
      line.text = message.text;
      line.final = message.final;
      return line;
    }
  }
  const line: TranscriptLine = { role: message.role, text: message.text, final: message.final };
  lines.push(line);
  return line;
}
