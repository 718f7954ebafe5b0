// What the speech-to-speech client specs share: a session opened on a fake with its events recorded, the caller's
// words as the media plane would stream them (8 kHz PCM16 in 20 ms frames), and the agent's words read back from
// the audio the session gave (the offline engine's text signal).
import { synthesizeOfflineSpeech, TextSignalDecoder } from '@vap/media';
import { waitFor } from '@vap/testing';
import type { RealtimeEvent, RealtimeSession } from '../realtime';

/** The media plane's rate. */
export const MEDIA_RATE = 8000;
const FRAME = 160;

/** A session's events as they came, with helpers to wait on them. */
export class RecordedEvents {
  readonly events: RealtimeEvent[] = [];
  readonly onEvent = (event: RealtimeEvent) => void this.events.push(event);

  of<T extends RealtimeEvent['type']>(type: T): Extract<RealtimeEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<RealtimeEvent, { type: T }> => e.type === type);
  }

  async next<T extends RealtimeEvent['type']>(
    type: T,
    after = 0,
    timeoutMs = 20_000,
  ): Promise<Extract<RealtimeEvent, { type: T }>> {
    return waitFor(() => this.of(type)[after], {
      timeoutMs,
      intervalMs: 5,
      description: `event ${type} #${after + 1} (seen: ${this.events.map((e) => e.type).join(', ')})`,
    });
  }

  /** The agent's words in the audio of a response, as a caller's recogniser reads them. */
  heard(responseId: string): string[] {
    const decoder = new TextSignalDecoder(MEDIA_RATE);
    const texts: string[] = [];
    for (const e of this.of('response.audio'))
      if (e.responseId === responseId) texts.push(...decoder.push(e.pcm));
    return texts;
  }

  /** Samples of a response's audio. */
  samples(responseId: string): number {
    return this.of('response.audio')
      .filter((e) => e.responseId === responseId)
      .reduce((n, e) => n + e.pcm.length, 0);
  }
}

/** The caller says `text` into the session: its speech in 20 ms frames, then `silenceMs` of silence. */
export async function callerSays(session: RealtimeSession, text: string, silenceMs = 400): Promise<void> {
  const speech = await synthesizeOfflineSpeech(text);
  for (let at = 0; at < speech.length; at += FRAME) {
    const frame = new Int16Array(FRAME);
    frame.set(speech.subarray(at, at + FRAME));
    session.sendAudio(frame);
  }
  silence(session, silenceMs);
}

/** `ms` of silence from the caller. */
export function silence(session: RealtimeSession, ms: number): void {
  for (let i = 0; i < ms / 20; i++) session.sendAudio(new Int16Array(FRAME));
}
