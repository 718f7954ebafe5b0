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
  | { type: 'transcript'; role: Role; text: string; final: boolean }
  | { type: 'agent.speaking'; speaking: boolean }
  | { type: 'tool'; name: string; status: 'running' | 'done' }
  | { type: 'speech'; stt: string; tts: string; warning?: string }
  | { type: 'session.ended'; reason: string };

export type ClientMessage =
  { type: 'played'; name: string } | { type: 'end' } | { type: 'mute'; muted: boolean };

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
        ? { type: 'transcript', role: m.role, text: m.text, final: m.final !== false }
        : null;
    case 'agent.speaking':
      return isBool(m.speaking) ? { type: 'agent.speaking', speaking: m.speaking } : null;
    case 'tool':
      return isString(m.name) && (m.status === 'running' || m.status === 'done')
        ? { type: 'tool', name: m.name, status: m.status }
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
  message: { role: Role; text: string; final: boolean },
): TranscriptLine {
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
