import { sineWave, synthesizeOfflineSpeech, TELEPHONY_SAMPLE_RATE, warmOfflineSpeech } from '@vap/media';

/** How the simulated callee's lines become audio: PCM16 mono at 8 kHz, readable by the offline STT. */
export interface CalleeVoice {
  speak(text: string): Promise<Int16Array>;
  /**
   * Gets `lines` ready ahead of the call that says them, so the callee never pauses mid-call while a line is
   * synthesized (the media clock keeps running through such a pause, and the call would bill it).
   */
  prepare(lines: readonly string[]): Promise<void>;
}

const SAMPLE_RATE = TELEPHONY_SAMPLE_RATE;

/**
 * The callee speaks with the offline synthesizer's female voice (the agents' default offline voices differ
 * by voice id), so a person listening to a sandbox recording hears speech, and the voice service's offline
 * STT reads the text layer under it back exactly.
 */
export class OfflineCalleeVoice implements CalleeVoice {
  speak(text: string): Promise<Int16Array> {
    return synthesizeOfflineSpeech(text, { voice: 'slt' });
  }

  /** The synthesizer started, then the lines one at a time into its phrase cache (one helper busy, not all). */
  async prepare(lines: readonly string[]): Promise<void> {
    await warmOfflineSpeech();
    for (const line of lines) await this.speak(line);
  }
}

/** An answering machine's beep: 1 kHz for 400 ms. */
export function answeringMachineBeep(): Int16Array {
  return sineWave(1000, (SAMPLE_RATE * 400) / 1000, SAMPLE_RATE, 10_000);
}
