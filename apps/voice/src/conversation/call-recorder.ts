// enable_recording: both legs of the call, the caller's audio as received and the agent's as sent, lined up on
// the carrier's stream, written as one two-channel WAV (left caller, right agent).

import { pcm16WavHeader, TELEPHONY_SAMPLE_RATE } from '@vap/media';

/**
 * One side of the call as samples. Frames are placed by the carrier's stream, not by when this process got to
 * them: a stalled event loop must neither cut a silence into a sentence (garbling it) nor shorten the call.
 */
class RecordedLeg {
  private samples = new Int16Array(TELEPHONY_SAMPLE_RATE * 10);
  /** Samples written so far (the leg's end). */
  length = 0;

  /** Writes `frame` at `at` (a sample index), or straight after the previous frame if that is later. */
  write(frame: Int16Array, at = this.length): void {
    const start = Math.max(at, this.length);
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

/**
 * enable_recording: the caller's leg is the carrier's inbound stream, frame after frame (carriers stream it
 * without pause, silence included, so its length is the call's media time on the carrier's clock). The agent's
 * leg follows it: a run of agent frames (an utterance, or the ambience bed) plays back to back, as the carrier
 * plays them, and a run that starts after a pause starts where the caller's leg is then, so an answer lands
 * after the words it answers.
 */
export class CallRecorder {
  private readonly callerLeg = new RecordedLeg();
  private readonly agentLeg = new RecordedLeg();

  /** One frame of caller audio (PCM16 8 kHz) as the carrier sent it. */
  caller(frame: Int16Array): void {
    this.callerLeg.write(frame);
  }

  /**
   * One frame of agent audio (PCM16 8 kHz, as sent to the carrier); `continuing` when it follows the previous
   * frame's slot rather than starting after a pause.
   */
  agent(frame: Int16Array, continuing: boolean): void {
    this.agentLeg.write(frame, continuing ? this.agentLeg.length : this.callerLeg.length);
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
