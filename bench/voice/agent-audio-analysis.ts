// What a caller heard of the agent: arrival times of the agent's 20 ms frames, cut into utterances, and how
// steady their pacing was while the agent spoke.
import { FRAME_MS } from '@vap/media';

/** One media frame the agent sent, as the caller received it. */
export interface ReceivedFrame {
  /** Arrival time, ms (performance.now()). */
  at: number;
  /** The frame carried speech, not filler silence. */
  speech: boolean;
}

export interface AgentAudioOptions {
  /**
   * Silence (sent or missing) at least this long ends an utterance. Turn boundaries are far longer (the caller
   * speaks, then the endpointer waits its 700 ms), and a pause this long inside one utterance would be an
   * outage, not jitter. Default 300 ms.
   */
  utteranceGapMs?: number;
  /** A gap longer than this between frames inside one utterance is an underrun. Default 40 ms (two frames). */
  underrunGapMs?: number;
}

export interface AgentAudioSummary {
  /** Every frame received, speech and filler. */
  frames: number;
  speechFrames: number;
  utterances: number;
  /** |gap - 20 ms| between consecutive frames inside an utterance, ms. */
  jitterMs: number[];
  /**
   * Holes inside an utterance: an arrival gap over `underrunGapMs`, or filler silence between two speech frames
   * of the same utterance (a sender that pads with silence when its queue runs dry).
   */
  underruns: number;
}

/**
 * Splits the frames into utterances (runs of speech frames whose silences are shorter than utteranceGapMs)
 * and measures the arrival gaps inside each. Frames must be in arrival order.
 */
export function analyseAgentAudio(
  frames: readonly ReceivedFrame[],
  options: AgentAudioOptions = {},
): AgentAudioSummary {
  const utteranceGapMs = options.utteranceGapMs ?? 300;
  const underrunGapMs = options.underrunGapMs ?? 2 * FRAME_MS;
  const summary: AgentAudioSummary = {
    frames: frames.length,
    speechFrames: 0,
    utterances: 0,
    jitterMs: [],
    underruns: 0,
  };
  // Index of the last speech frame of the current utterance, or -1 outside one.
  let lastSpeech = -1;
  for (let i = 0; i < frames.length; i++) {
    if (!frames[i].speech) continue;
    summary.speechFrames++;
    if (lastSpeech < 0 || frames[i].at - frames[lastSpeech].at >= utteranceGapMs) {
      summary.utterances++;
      lastSpeech = i;
      continue;
    }
    // Every arrival from the previous speech frame up to this one belongs to the utterance.
    let hole = false;
    for (let j = lastSpeech + 1; j <= i; j++) {
      const gap = frames[j].at - frames[j - 1].at;
      summary.jitterMs.push(Math.abs(gap - FRAME_MS));
      if (gap > underrunGapMs) hole = true;
    }
    if (hole || i - lastSpeech > 1) summary.underruns++;
    lastSpeech = i;
  }
  return summary;
}
