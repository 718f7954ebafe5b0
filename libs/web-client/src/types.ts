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
  /** The agent runs a tool (running), or finished it (done). */
  tool: { name: string; status: 'running' | 'done' };
  /**
   * What hears and speaks for the agent (provider names), once, at the start; `warning` when the user will not be
   * understood (the offline development recogniser), to show the person.
   */
  speech: { stt: string; tts: string; warning?: string };
  /**
   * The session is over and everything is released (microphone, audio, socket). `reason`: the platform's
   * end reason, `user` after end(), `connection_lost` when the socket closed without one.
   */
  ended: { reason: string };
  /** Something went wrong (the session then ends, unless the error says otherwise). */
  error: Error;
}
