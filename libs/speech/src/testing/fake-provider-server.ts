// What every fake speech provider shares beyond the HTTP plumbing (startFakeServer, readBody and sendJson in
// @vap/testing): a WebSocket upgrade refused as providers refuse it, and the provider's audio as the offline
// engine's speech (so the platform's media client and the fakes' recognisers read the words back).
import type { Duplex } from 'node:stream';
import { Resampler, synthesizeOfflineSpeech, TextSignalDecoder } from '@vap/media';

/** Refuses a WebSocket upgrade with an HTTP answer, as providers do for a bad key or bad query. */
export function refuseUpgrade(socket: Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}` +
      `\r\nconnection: close\r\n\r\n${text}`,
  );
}

/** The text as the offline engine speaks it (its words in-band), PCM16 mono at `sampleRate`. */
export async function speechPcm(text: string, sampleRate: number): Promise<Int16Array> {
  const at8k = await synthesizeOfflineSpeech(text);
  if (sampleRate === 8000) return at8k;
  const resampler = new Resampler(8000, sampleRate);
  const head = resampler.push(at8k);
  const tail = resampler.flush();
  const out = new Int16Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** Little-endian bytes of PCM16 samples. */
export function pcmBytes(pcm: Int16Array): Buffer {
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
}

/**
 * A fake recogniser: the words of the offline engine's speech in the audio it is given, the same words for the
 * same audio. Audio at `sampleRate` is brought to 8 kHz first (where the text signal is decoded).
 */
export class FakeRecogniser {
  private readonly decoder = new TextSignalDecoder(8000);
  private readonly resampler: Resampler | undefined;

  constructor(sampleRate: number) {
    this.resampler = sampleRate === 8000 ? undefined : new Resampler(sampleRate, 8000);
  }

  /** Texts completed by this audio. */
  push(pcm: Int16Array): string[] {
    return this.decoder.push(this.resampler ? this.resampler.push(pcm) : pcm);
  }
}
