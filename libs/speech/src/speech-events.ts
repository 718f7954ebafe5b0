import { EventEmitter } from 'node:events';

/** What a provider session reports about itself for the host to count (the voice service's metrics). */
export interface SpeechEventMap {
  /** A live STT stream dropped mid-call was reconnected (ok) or could not be (failed). */
  stt_reconnect: [{ provider: string; outcome: 'ok' | 'failed' }];
}

/** Providers emit here; the host listens once at start (the library has no metrics of its own). */
export const speechEvents = new EventEmitter<SpeechEventMap>();
