// Offline STT: reads the text signal that offline TTS mixes under its speech (text-modem.ts). It understands
// only that signal; any other audio (a person, a cloud voice) transcribes to ''.
import { OFFLINE_SPEECH_SAMPLE_RATE } from './offline-speech';
import { TextSignalDecoder } from './text-modem';

/**
 * One utterance at a time, streamed: push the caller's frames as they arrive (any size), then finish() for the
 * text. Frames carrying several offline-TTS sentences give their texts joined by a space.
 */
export class OfflineTranscriber {
  private readonly decoder: TextSignalDecoder;
  private texts: string[] = [];

  constructor(readonly sampleRate = OFFLINE_SPEECH_SAMPLE_RATE) {
    this.decoder = new TextSignalDecoder(sampleRate);
  }

  /** Answers whether the frame completed a sentence (the text so far grew). */
  push(frame: Int16Array): boolean {
    const texts = this.decoder.push(frame);
    if (texts.length) this.texts.push(...texts);
    return texts.length > 0;
  }

  /** The utterance's text so far. */
  get text(): string {
    return this.texts.join(' ');
  }

  /** The utterance's text ('' when it carried no signal), and a clean start for the next utterance. */
  finish(): string {
    const text = this.texts.join(' ');
    this.reset();
    return text;
  }

  /** Drops the current utterance (e.g. it was cut off) without reading it. */
  reset(): void {
    this.texts = [];
    this.decoder.reset();
  }
}
