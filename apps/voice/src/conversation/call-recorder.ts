// enable_recording: both legs of the call, the caller's audio as received and the agent's as sent, lined up on
// the carrier's stream, written as one two-channel WAV (left caller, right agent).

import { PcmBuffer, pcm16WavHeader, TELEPHONY_SAMPLE_RATE } from '@vap/media';

/**
 * enable_recording: the caller's leg is the carrier's inbound stream, frame after frame (carriers stream it
 * without pause, silence included, so its length is the call's media time on the carrier's clock). The agent's
 * leg follows it: a run of agent frames (an utterance, or the ambience bed) plays back to back, as the carrier
 * plays them, and a run that starts after a pause starts where the caller's leg is then, so an answer lands
 * after the words it answers.
 */
export class CallRecorder {
  // Frames are placed by the carrier's stream, not by when this process got to them: a stalled event loop must
  // neither cut a silence into a sentence (garbling it) nor shorten the call. Room for 10 s to start with.
  private readonly callerLeg = new PcmBuffer(TELEPHONY_SAMPLE_RATE * 10);
  private readonly agentLeg = new PcmBuffer(TELEPHONY_SAMPLE_RATE * 10);

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
