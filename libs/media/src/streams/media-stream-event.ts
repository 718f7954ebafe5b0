// The carrier-neutral view of a media stream, so the voice pipeline is written once for every carrier.

/** What the carrier tells the platform, in carrier-neutral terms. */
export type MediaStreamEvent =
  /** The stream is up. `callId` is the carrier's own call id; `params` are the ones the answer markup set. */
  | { type: 'started'; callId: string; streamId: string; params: Record<string, string> }
  /**
   * Caller audio, mu-law 8 kHz mono. `timestamp` is the carrier's, in ms; its origin differs by carrier
   * (stream start or epoch), so only differences between frames mean anything.
   */
  | { type: 'audio'; payload: Buffer; timestamp?: number }
  /** Playback reached a mark the platform sent (or a clear dropped the audio before it). */
  | { type: 'played'; mark: string }
  /** The carrier confirmed a clear. Only some carriers confirm; others just return the pending marks. */
  | { type: 'cleared' }
  | { type: 'dtmf'; digit: string }
  /**
   * The caller typed a line instead of speaking it (a browser session's `user_text`): their final utterance,
   * already bounded and trimmed by the codec.
   */
  | { type: 'text'; text: string }
  /**
   * The caller is typing a line (a browser session's `typing`): silent, but there. It keeps the agent from
   * asking whether they are still there; it is no turn and no words.
   */
  | { type: 'typing' }
  /**
   * The far end stopped the stream. `reason` is the end_call_reason it gave (a browser's `end`: caller_ended);
   * carriers give none (their call status says why).
   */
  | { type: 'stopped'; reason?: string };

/** What the platform asks the carrier to do. */
export type MediaStreamCommand =
  /** Queue mu-law 8 kHz mono audio for playback. */
  | { type: 'sendAudio'; payload: Buffer }
  /** Ask for a `played` event once everything queued before it has played. */
  | { type: 'mark'; name: string }
  /** Drop queued audio (barge-in). */
  | { type: 'clear' };

/**
 * What the conversation tells a client that shows it (a browser stream), beyond the audio: carriers have no use
 * for it. The wire form of each is its JSON.
 */
export type MediaStreamNotice =
  /** The user's words so far (`final: false`, interim) or a line said on the call (`final: true`). */
  | {
      type: 'transcript';
      role: 'user' | 'agent';
      text: string;
      final: boolean;
      /** A line the user typed (user_text): a line of its own, not an update of words being spoken. */
      typed?: true;
    }
  /** The agent's line began to play (its first frame) or is done. */
  | { type: 'agent.speaking'; speaking: boolean }
  /**
   * A tool the agent's model called is running (with the arguments the model gave it), or done (its outcome, as
   * the call's tool calls record it, and how long it took).
   */
  | {
      type: 'tool';
      name: string;
      status: 'running';
      /** The model's arguments; `{}` with `arguments_truncated` when over TOOL_CALL_MAX_ARGUMENT_BYTES as JSON. */
      arguments: Record<string, unknown>;
      arguments_truncated?: true;
    }
  /** `outcome`: a tool-call outcome (TOOL_CALL_OUTCOMES), or `pending` for an async function answering later. */
  | { type: 'tool'; name: string; status: 'done'; outcome: string; latency_ms: number }
  /**
   * What hears and speaks for the agent at the session's start (provider names), with a warning a person can act
   * on when the offline development recogniser hears them (it understands only the platform's synthetic speech).
   */
  | { type: 'speech'; stt: string; tts: string; warning?: string };

/** The session's own notices to such a client: the stream is up, and the session is over (before the close). */
export type MediaSessionNotice =
  | MediaStreamNotice
  | { type: 'session.started'; session_id: string }
  | { type: 'session.ended'; reason: string }
  /**
   * A client message the session did not act on, answered rather than closing the stream (a typed line that is
   * too long, empty or too frequent): `code` for programs, `message` for people.
   */
  | { type: 'error'; code: string; message: string };
