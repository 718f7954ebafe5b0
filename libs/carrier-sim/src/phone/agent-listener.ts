import {
  FRAME_MS,
  TELEPHONY_SAMPLE_RATE,
  TextSignalDecoder,
  levelDbfs,
  mulawDecode,
  textSignalDurationMs,
} from '@vap/media';

/** Played audio under this level is quiet (the voice service's VAD uses the same default threshold). */
export const QUIET_DBFS = -40;
/**
 * Quiet after a line that tells the callee the agent has finished its turn. Longer than the pauses inside
 * offline TTS speech (flite leaves up to ~260 ms at commas and at a clip's start, ~200 ms at its end, so two
 * sentences synthesized apart and played back to back leave ~450 ms), and about the pause a person leaves
 * before answering.
 */
export const TURN_GAP_MS = 600;
/** Speech runs about 15 characters a second; the text signal carries 25, so it ends first. */
const SPEECH_MS_PER_CHAR = 70;
/**
 * When the agent's audio never gets quiet (loud background audio under it), a line counts as finished
 * this long after its speech should have ended.
 */
export const TURN_FALLBACK_MARGIN_MS = 2000;

/** What the callee understood of one agent turn. */
export interface AgentTurn {
  lines: string[];
  /** Media time at which the turn was taken as finished, ms. */
  endedAtMs: number;
}

/**
 * The callee's ear: reads the agent's lines from the audio as it plays (the offline modem's text signal)
 * and decides when the agent has finished a turn: a line read, then TURN_GAP_MS of quiet.
 */
export class AgentListener {
  private readonly decoder = new TextSignalDecoder(TELEPHONY_SAMPLE_RATE);
  private readonly pcm = new Int16Array((TELEPHONY_SAMPLE_RATE * FRAME_MS) / 1000);
  private pending: string[] = [];
  /** Media time by which the pending lines' speech has surely ended, loud background or not. */
  private pendingUntilMs = 0;
  private quietMs = 0;
  private loudMs = 0;
  /** Every line heard on the call, in order. */
  readonly heard: string[] = [];

  /** True while the agent's audio is above the quiet level. */
  get agentTalking(): boolean {
    return this.quietMs === 0 && this.loudMs > 0;
  }

  /** How long the agent has been talking without a pause, ms (0 when quiet). */
  get talkingForMs(): number {
    return this.quietMs === 0 ? this.loudMs : 0;
  }

  /** The agent's queued audio was dropped (clear): the line under way will not finish. */
  lineCut(): void {
    this.decoder.reset();
  }

  /** One played 20 ms mu-law frame at media time `atMs`; returns the agent turn it finished, if any. */
  hear(frame: Buffer, atMs: number): AgentTurn | undefined {
    mulawDecode(frame, this.pcm);
    if (levelDbfs(this.pcm) < QUIET_DBFS) {
      this.quietMs += FRAME_MS;
      this.loudMs = 0;
    } else {
      this.loudMs += FRAME_MS;
      this.quietMs = 0;
    }
    for (const line of this.decoder.push(this.pcm)) {
      // The text is read when its signal ends; the speech it rides under may go on a while.
      const speechLeftMs = Math.max(0, line.length * SPEECH_MS_PER_CHAR - textSignalDurationMs(line));
      this.pendingUntilMs = atMs + speechLeftMs + TURN_FALLBACK_MARGIN_MS;
      this.pending.push(line);
      this.heard.push(line);
    }
    if (this.pending.length === 0) return undefined;
    if (this.quietMs < TURN_GAP_MS && atMs < this.pendingUntilMs) return undefined;
    // The agent's next sentence is arriving: the turn goes on, whatever the fallback says.
    if (this.quietMs < TURN_GAP_MS && this.decoder.receiving) return undefined;
    const turn = { lines: this.pending, endedAtMs: atMs };
    this.pending = [];
    return turn;
  }

  /** Forgets lines read but not yet taken as a turn (the callee talked over them). */
  forgetPending(): void {
    this.pending = [];
  }
}
