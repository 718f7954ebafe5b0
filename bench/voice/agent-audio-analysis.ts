// What a caller heard of the agent: arrival times of the agent's 20 ms frames, grouped into the agent's answers,
// and how steady their pacing was while the agent spoke.
import { FRAME_MS } from '@vap/media';

/** One media frame the agent sent, as the caller received it. */
export interface ReceivedFrame {
  /** Arrival time, ms (performance.now()). */
  at: number;
  /** The frame carried speech, not filler silence. */
  speech: boolean;
  /**
   * Which of the agent's answers the frame belongs to: 0 for the intro, n for the answer to the caller's n-th
   * turn (the caller counts up when it stops speaking and starts waiting).
   */
  answer: number;
}

export interface AgentAudioOptions {
  /** A gap longer than this between frames inside one utterance is an underrun. Default 40 ms (two frames). */
  underrunGapMs?: number;
}

export interface AgentAudioSummary {
  /** Every frame received, speech and filler. */
  frames: number;
  speechFrames: number;
  /** Answers that carried speech; each is one utterance, from its first speech frame to its last. */
  utterances: number;
  /** |gap - 20 ms| between consecutive frames inside an utterance, ms. */
  jitterMs: number[];
  /**
   * Holes inside an utterance: an arrival gap over `underrunGapMs`, or filler silence between two of its speech
   * frames (a sender that pads with silence when its queue runs dry). One per hole, however long.
   */
  underruns: number;
}

/**
 * Each answer's utterance runs from its first speech frame to its last, whatever arrives in between (filler or
 * nothing for a while): the fake speech server returns one unbroken stretch of speech per synthesis, so any hole
 * inside is the platform's. Frames must be in arrival order.
 */
export function analyseAgentAudio(
  frames: readonly ReceivedFrame[],
  options: AgentAudioOptions = {},
): AgentAudioSummary {
  const underrunGapMs = options.underrunGapMs ?? 2 * FRAME_MS;
  const summary: AgentAudioSummary = {
    frames: frames.length,
    speechFrames: 0,
    utterances: 0,
    jitterMs: [],
    underruns: 0,
  };
  // The last speech frame of each answer, so an utterance's end is known while walking forward.
  const lastSpeechOf = new Map<number, number>();
  frames.forEach((frame, i) => frame.speech && lastSpeechOf.set(frame.answer, i));
  // Index of the previous speech frame of the utterance being walked, or -1 outside one.
  let previousSpeech = -1;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i];
    if (!frame.speech) continue;
    summary.speechFrames++;
    if (previousSpeech < 0 || frames[previousSpeech].answer !== frame.answer) {
      summary.utterances++;
    } else {
      let hole = i - previousSpeech > 1;
      for (let j = previousSpeech + 1; j <= i; j++) {
        const gap = frames[j].at - frames[j - 1].at;
        summary.jitterMs.push(Math.abs(gap - FRAME_MS));
        if (gap > underrunGapMs) hole = true;
      }
      if (hole) summary.underruns++;
    }
    previousSpeech = lastSpeechOf.get(frame.answer) === i ? -1 : i;
  }
  return summary;
}
