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
  | { type: 'stopped' };

/** What the platform asks the carrier to do. */
export type MediaStreamCommand =
  /** Queue mu-law 8 kHz mono audio for playback. */
  | { type: 'sendAudio'; payload: Buffer }
  /** Ask for a `played` event once everything queued before it has played. */
  | { type: 'mark'; name: string }
  /** Drop queued audio (barge-in). */
  | { type: 'clear' };
