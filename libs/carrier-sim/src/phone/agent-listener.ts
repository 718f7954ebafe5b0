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

/**
 * Speech with no text signal under it (a voice of a cloud provider, or local speech's eSpeak NG) is a turn of
 * its own once this much of it played and UNREAD_TURN_GAP_MS of quiet followed: the callee knows the agent had
 * its say, not what it said. The gap is longer than TURN_GAP_MS, since nothing read says a sentence ended.
 */
export const UNREAD_SPEECH_MIN_MS = 300;
export const UNREAD_TURN_GAP_MS = 800;

/** What the callee understood of one agent turn. */
export interface AgentTurn {
  /** The lines read from the turn's text signal; none when its speech carried none. */
  lines: string[];
  /** Media time at which the turn was taken as finished, ms. */
  endedAtMs: number;
}

/**
 * The callee's ear: reads the agent's lines from the audio as it plays (the offline modem's text signal)
 * and decides when the agent has finished a turn: a line read, then TURN_GAP_MS of quiet; or speech with no
 * line in it, then UNREAD_TURN_GAP_MS of quiet.
 */
export class AgentListener {
  private readonly decoder = new TextSignalDecoder(TELEPHONY_SAMPLE_RATE);
  private readonly pcm = new Int16Array((TELEPHONY_SAMPLE_RATE * FRAME_MS) / 1000);
  private pending: string[] = [];
  /** Media time by which the pending lines' speech has surely ended, loud background or not. */
  private pendingUntilMs = 0;
  private quietMs = 0;
  private loudMs = 0;
  /** Speech played since the last turn while no line was being read or waiting. */
  private unreadMs = 0;
  /** Every line heard on the call, in order. */
  readonly heard: string[] = [];

  /** True while the agent's audio is above the quiet level. */
  get agentTalking(): boolean {
    return this.quietMs === 0 && this.loudMs > 0;
  }

  /**
   * A line of the agent's is being read, or was read and its turn has not ended: the agent is mid-sentence. Bounded:
   * a line read ends its turn by its speech's length plus TURN_FALLBACK_MARGIN_MS, loud background or not.
   */
  get midLine(): boolean {
    return this.pending.length > 0 || this.decoder.receiving;
  }

  /** How long the agent has been talking without a pause, ms (0 when quiet). */
  get talkingForMs(): number {
    return this.quietMs === 0 ? this.loudMs : 0;
  }

  /**
   * The agent's queued audio was dropped (clear): the line under way will not finish. Unread sound it cut (hold
   * audio stopped when a transfer did not go through) is no turn the agent finished: the callee waits for what
   * the agent says next, however long it takes to start.
   */
  lineCut(): void {
    this.decoder.reset();
    this.unreadMs = 0;
  }

  /**
   * One played 20 ms mu-law frame at media time `atMs`; returns the agent turn it finished, if any. `filler`: the
   * loudspeaker had nothing of the agent's to play (its audio was late), so the frame is quiet to the ear but not
   * read: the agent's sentence goes on in its next frame, and a gap the agent never sent must not break it.
   */
  hear(frame: Buffer, atMs: number, filler = false): AgentTurn | undefined {
    mulawDecode(frame, this.pcm);
    if (levelDbfs(this.pcm) < QUIET_DBFS) {
      this.quietMs += FRAME_MS;
      this.loudMs = 0;
    } else {
      this.loudMs += FRAME_MS;
      this.quietMs = 0;
    }
    const lines = filler ? [] : this.decoder.push(this.pcm);
    if (lines.length || this.decoder.receiving || this.pending.length) this.unreadMs = 0;
    else if (this.quietMs === 0) this.unreadMs += FRAME_MS;
    for (const line of lines) {
      // The text is read when its signal ends; the speech it rides under may go on a while.
      const speechLeftMs = Math.max(0, line.length * SPEECH_MS_PER_CHAR - textSignalDurationMs(line));
      this.pendingUntilMs = atMs + speechLeftMs + TURN_FALLBACK_MARGIN_MS;
      this.pending.push(line);
      this.heard.push(line);
    }
    if (this.pending.length === 0) {
      if (this.unreadMs < UNREAD_SPEECH_MIN_MS || this.quietMs < UNREAD_TURN_GAP_MS) return undefined;
      this.unreadMs = 0;
      return { lines: [], endedAtMs: atMs };
    }
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
