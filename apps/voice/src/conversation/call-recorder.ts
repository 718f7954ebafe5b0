// enable_recording: both legs of the call, the caller's audio as received and the agent's as sent, placed on
// the media clock so they line up, written as one two-channel WAV (left caller, right agent).

import { pcm16WavHeader, TELEPHONY_SAMPLE_RATE } from '@vap/media';

/**
 * A leg arrives in frames that are mostly back to back but may pause (no audio sent during silence) or jitter.
 * A frame is written straight after the previous one unless the media clock says it starts more than this much
 * later, in which case the gap is filled with silence. Generous: a late burst of frames after a stalled event
 * loop (amplified by MEDIA_TIME_SCALE in tests) is jitter, and a silence cut into a sentence would garble it.
 */
export const RECORDING_GAP_TOLERANCE_MS = 400;

class RecordedLeg {
  private samples = new Int16Array(TELEPHONY_SAMPLE_RATE * 10);
  /** Samples written so far (the leg's end). */
  length = 0;

  write(frame: Int16Array, atMs: number): void {
    const at = Math.round((atMs * TELEPHONY_SAMPLE_RATE) / 1000);
    const tolerance = (RECORDING_GAP_TOLERANCE_MS * TELEPHONY_SAMPLE_RATE) / 1000;
    const start = at > this.length + tolerance ? at : this.length;
    this.ensure(start + frame.length);
    this.samples.set(frame, start);
    this.length = start + frame.length;
  }

  sample(i: number): number {
    return i < this.length ? this.samples[i] : 0;
  }

  private ensure(size: number): void {
    if (size <= this.samples.length) return;
    const grown = new Int16Array(Math.max(size, this.samples.length * 2));
    grown.set(this.samples.subarray(0, this.length));
    this.samples = grown;
  }
}

export class CallRecorder {
  private readonly callerLeg = new RecordedLeg();
  private readonly agentLeg = new RecordedLeg();

  /** Caller audio (PCM16 8 kHz) received at `atMs` of media time. */
  caller(frame: Int16Array, atMs: number): void {
    this.callerLeg.write(frame, atMs);
  }

  /** Agent audio (PCM16 8 kHz, as sent to the carrier) sent at `atMs` of media time. */
  agent(frame: Int16Array, atMs: number): void {
    this.agentLeg.write(frame, atMs);
  }

  /** The two legs as a 16-bit 8 kHz stereo WAV, as long as the longer leg. */
  toWav(): { wav: Buffer; durationSeconds: number } {
    const frames = Math.max(this.callerLeg.length, this.agentLeg.length);
    const dataBytes = frames * 4;
    const wav = Buffer.alloc(44 + dataBytes);
    // Two channels: caller left, agent right.
    pcm16WavHeader(dataBytes, TELEPHONY_SAMPLE_RATE, 2).copy(wav, 0);
    for (let i = 0, offset = 44; i < frames; i++, offset += 4) {
      wav.writeInt16LE(this.callerLeg.sample(i), offset);
      wav.writeInt16LE(this.agentLeg.sample(i), offset + 2);
    }
    return { wav, durationSeconds: frames / TELEPHONY_SAMPLE_RATE };
  }
}
