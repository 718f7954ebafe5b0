/** Options of VoiceClient.connect. */
export interface VoiceClientOptions {
  /**
   * The session's connect_url, as POST /api/v2/browser-sessions answered it (wss://.../browser/<id>?token=...).
   * Get it from your own server: the API key must never reach the page.
   */
  url: string;
  /**
   * The microphone's processing. Both are on by default (what a person talking through laptop speakers
   * needs); turn them off only for a headset or a synthetic source that noise suppression would eat.
   */
  audio?: { echoCancellation?: boolean; noiseSuppression?: boolean };
  /**
   * Whether to use the microphone (default true). With `false` the browser never asks for it: the user types
   * (sendText) and hears the agent; the client tells the platform it sends no audio (a `mute`), and the platform
   * keeps the line's clock itself.
   */
  microphone?: boolean;
}

/** A line of the live transcript. */
export interface VoiceTranscriptLine {
  role: 'user' | 'agent';
  text: string;
  /** False while the user's words are still being heard (interim); true once the line is settled. */
  final: boolean;
}

/** The events of a VoiceClient and what their listeners receive. */
export interface VoiceClientEvents {
  /** A transcript line was added or updated (interim words of the user are replaced until final). */
  transcript: VoiceTranscriptLine;
  /** The agent started or stopped speaking. */
  agent: { speaking: boolean };
  /**
   * The agent runs a tool (running, with the model's `arguments`; `arguments_truncated` when they were too large
   * to show), or finished it (done, with its `outcome`: success, failed, invalid_arguments, http_error, timeout,
   * refused, not_found, not_connected, limit_reached, cancelled, or pending for an async function that answers later; and
   * `latency_ms`).
   */
  tool: {
    name: string;
    status: 'running' | 'done';
    arguments?: Record<string, unknown>;
    arguments_truncated?: boolean;
    outcome?: string;
    latency_ms?: number;
  };
  /**
   * What hears and speaks for the agent (provider names), once, at the start; `warning` when the user will not be
   * understood (the offline development recogniser), to show the person.
   */
  speech: { stt: string; tts: string; warning?: string };
  /**
   * The session is over and everything is released (microphone, audio, socket). `reason`: the platform's
   * end reason, `user` after end(), a refusal's cause when the platform closed the session with one (see
   * VoiceClientError), `connection_lost` when the socket closed without one.
   */
  ended: { reason: string };
  /**
   * Something went wrong: a VoiceClientError. With `fatal` (the connection failed) the session ends; without it
   * (a typed line the platform did not take: `reason` invalid_user_text or rate_limited) the session goes on.
   */
  error: Error;
}
