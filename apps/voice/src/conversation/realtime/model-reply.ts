// One reply of the speech-to-speech model: its audio played as one agent line through the agent's voice (the same
// frames, pacing, marks, recording and ambience as synthesised speech), its words as the model transcribed them,
// and what the caller heard of it when it was cut.

import type { TurnLatency, TurnModelUsage } from '@vap/messages';
import type { ChatMessage } from '@vap/llm';
import type { SpokenLine } from '../agent-speech';
import type { Turn } from '../agent-turn';
import type { RealtimeModel } from './realtime-model';

/** The media plane's frame: audio is handed to the voice in whole frames, so no frame is padded mid-reply. */
const FRAME_SAMPLES = 160;
/**
 * Audio is handed over once this much came (100 ms): each piece is a segment with its own mark. The reply's first
 * frame goes at once, so the caller hears it as soon as it came.
 */
const PIECE_SAMPLES = 800;
/** Speaking rate for a reply whose audio was still coming when it was cut (as the voice estimates it). */
const ESTIMATED_MS_PER_WORD = 350;

export class ModelReply {
  /** The agent line its audio plays on, from its first audio. */
  line: SpokenLine | null = null;
  /** The model's words so far (its transcript deltas), then its final transcript. */
  transcript = '';
  /** The reply is over on the provider's side (response.done). */
  finished = false;
  /** The caller spoke over it: nothing more of it is played. */
  cut = false;
  /** Media ms of it the caller had heard when they spoke over it. */
  heardMs: number | null = null;
  /** Its tokens and the ones of the replies before it that no line carried yet. */
  usage: TurnModelUsage | null = null;
  /**
   * Its line closed (its transcript line, if anything of it was heard, is written): tokens the provider reports
   * after that (a reply cut before its response.done) go on the model's next line.
   */
  closed = false;
  /** The turn's latency parts, on the turn's first line. */
  latency: TurnLatency | null = null;
  /** What the model's history keeps of it, corrected to what was heard when its line closes. */
  history: Extract<ChatMessage, { role: 'assistant' }> | null = null;
  /** Samples handed to the voice, and the ones waiting for a whole piece. */
  private queuedSamples = 0;
  private pending = new Int16Array(PIECE_SAMPLES + FRAME_SAMPLES);
  private pendingSamples = 0;

  constructor(
    readonly id: string,
    readonly turn: Turn,
    /** The model that writes it (a fallback may have taken the turn over). */
    readonly model: RealtimeModel,
    private readonly sampleRate: number,
  ) {}

  /** Plays `pcm` after what came before (the line is made on the first audio). */
  play(speech: () => SpokenLine, pcm: Int16Array): void {
    if (this.cut || this.finished) return;
    this.line ??= speech();
    let at = 0;
    while (at < pcm.length) {
      if (this.pendingSamples === this.pending.length) this.handOver(false);
      const take = Math.min(pcm.length - at, this.pending.length - this.pendingSamples);
      this.pending.set(pcm.subarray(at, at + take), this.pendingSamples);
      this.pendingSamples += take;
      at += take;
    }
    if (this.pendingSamples >= (this.queuedSamples === 0 ? FRAME_SAMPLES : PIECE_SAMPLES))
      this.handOver(false);
  }

  /** No more audio comes: what is left plays and the line closes once it has played. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.cut) this.handOver(true);
    this.line?.end();
  }

  /** Media ms of its audio the caller has heard at `nowMs`. */
  playedMs(nowMs: number): number {
    const started = this.line?.firstFrameAtMs;
    if (started === null || started === undefined) return 0;
    return Math.max(0, Math.min(nowMs - started, this.audioMs));
  }

  /** Media ms of audio handed to the voice. */
  get audioMs(): number {
    return (this.queuedSamples * 1000) / this.sampleRate;
  }

  /** Its words, cut to the share of its audio that was heard when `playedMs` of it was. */
  heardText(playedMs: number): string {
    const words = this.transcript.split(/\s+/).filter(Boolean);
    if (!this.cut && !this.line?.interrupted) return words.join(' ');
    const totalMs = Math.max(this.audioMs, this.finished ? 0 : words.length * ESTIMATED_MS_PER_WORD);
    if (totalMs <= 0) return '';
    return words.slice(0, Math.floor((words.length * Math.min(playedMs, totalMs)) / totalMs)).join(' ');
  }

  /** Hands the waiting audio to the line: whole frames only, unless it is the reply's last. */
  private handOver(last: boolean): void {
    const line = this.line;
    const count = last ? this.pendingSamples : this.pendingSamples - (this.pendingSamples % FRAME_SAMPLES);
    if (!line || count === 0) return;
    const piece = this.pending.slice(0, count);
    this.pending.copyWithin(0, count, this.pendingSamples);
    this.pendingSamples -= count;
    this.queuedSamples += count;
    // Ready audio cannot fail; a line cut meanwhile drops it.
    line.play('', piece).catch(() => undefined);
  }
}
