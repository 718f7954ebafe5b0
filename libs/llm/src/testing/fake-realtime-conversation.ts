// What the fake speech-to-speech providers share: ears that hear the caller in the audio a client streams (speech
// starts on its energy, the words are the offline engine's in-band text signal, so the platform's own synthetic
// caller is understood exactly), a script that decides each reply (words to speak, tool calls), the reply as the
// offline engine's speech at the provider's rate, and scripted failures.
import { setTimeout as sleep } from 'node:timers/promises';
import { Resampler, synthesizeOfflineSpeech, TextSignalDecoder } from '@vap/media';

/** What the model is asked to answer. */
export type FakeRealtimeInput =
  /** The caller finished an utterance with these words. */
  | { kind: 'caller'; text: string }
  /** Results of the last reply's tool calls came back. */
  | { kind: 'tool_results'; results: { callId: string; name: string; output: string }[] }
  /**
   * The client asked for a reply with nothing new heard (a turn the agent takes by itself, or a new session given
   * the conversation so far): `lastUserText` is the latest user line the client put into the conversation.
   */
  | { kind: 'respond'; lastUserText: string | null };

/** One reply: words spoken (and transcribed), then tool calls; its token counts (a default otherwise). */
export interface FakeRealtimeReply {
  say?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  usage?: { inputTokens: number; outputTokens: number };
}

/** Decides each reply; null: no reply at all (as a model that chose to stay quiet). */
export type FakeRealtimeScript = (input: FakeRealtimeInput) => FakeRealtimeReply | null;

/** "You said <words>." */
export function echoOf(text: string): string {
  return `You said ${text.replace(/[.?!]+$/, '')}.`;
}

/**
 * Echoes the caller's words (heard, or the latest the client gave), reads tool results back, and answers a bare
 * request politely.
 */
export const echoRealtimeScript: FakeRealtimeScript = (input) => {
  if (input.kind === 'caller') return { say: echoOf(input.text) };
  if (input.kind === 'tool_results')
    return { say: `The answer is ${input.results.map((r) => r.output).join(' ')}`.trim() };
  if (input.lastUserText) return { say: echoOf(input.lastUserText) };
  return { say: 'Is there anything else I can do for you?' };
};

/** How the fake fails its next replies: an error (then the socket closes), silence, or a dropped socket. */
export type FakeRealtimeFailure = 'error' | 'stall' | 'drop';

/** Scripted failures of replies: after `after` good replies, the next `times` fail the chosen way. */
export class FakeRealtimeFailures {
  private mode: FakeRealtimeFailure | null = null;
  private goodLeft = 0;
  private left = Infinity;

  set(mode: FakeRealtimeFailure, after = 0, times = Infinity): void {
    this.mode = mode;
    this.goodLeft = after;
    this.left = times;
  }

  clear(): void {
    this.mode = null;
  }

  /** Counts a reply; the failure it must suffer, or null. */
  next(): FakeRealtimeFailure | null {
    if (!this.mode) return null;
    if (this.goodLeft > 0) {
      this.goodLeft--;
      return null;
    }
    const mode = this.mode;
    if (--this.left <= 0) this.mode = null;
    return mode;
  }
}

/** RMS (PCM16) above which a 20 ms frame at 8 kHz is voice: the text signal alone is about 700. */
const SPEECH_RMS = 250;
/** Frames above it in a row that start speech. */
const START_FRAMES = 2;
/** Quiet frames after an utterance's words before another can start (its speech may outlast its signal). */
const TAIL_FRAMES = 8;
/** Quiet frames that end speech that carried no words (noise). */
const NOISE_END_FRAMES = 25;

/** What the ears made of the audio just pushed. */
export interface Heard {
  /** Speech started in it. */
  started: boolean;
  /** Utterances completed in it, with their words ('' for noise without words). */
  utterances: string[];
}

/** The caller as a provider's voice activity detection and transcription hear them, from audio at `rate`. */
export class FakeCallerEars {
  private readonly decoder = new TextSignalDecoder(8000);
  private readonly resampler: Resampler | null;
  private state: 'quiet' | 'speaking' | 'tail' = 'quiet';
  private loud = 0;
  private quiet = 0;
  private frame = new Int16Array(160);
  private filled = 0;
  /** Milliseconds of audio heard (at the client's clock). */
  heardMs = 0;

  constructor(readonly rate: number) {
    this.resampler = rate === 8000 ? null : new Resampler(rate, 8000);
  }

  get speaking(): boolean {
    return this.state === 'speaking';
  }

  push(pcm: Int16Array): Heard {
    this.heardMs += (pcm.length * 1000) / this.rate;
    const at8k = this.resampler ? this.resampler.push(pcm) : pcm;
    const heard: Heard = { started: false, utterances: [] };
    for (const text of this.decoder.push(at8k)) {
      heard.utterances.push(text);
      this.state = 'tail';
      this.quiet = 0;
    }
    for (let i = 0; i < at8k.length; i++) {
      this.frame[this.filled++] = at8k[i];
      if (this.filled < this.frame.length) continue;
      this.filled = 0;
      this.frameHeard(this.rms(), heard);
    }
    return heard;
  }

  private rms(): number {
    let sum = 0;
    for (const s of this.frame) sum += s * s;
    return Math.sqrt(sum / this.frame.length);
  }

  private frameHeard(rms: number, heard: Heard): void {
    const voiced = rms > SPEECH_RMS;
    if (this.state === 'quiet') {
      this.loud = voiced ? this.loud + 1 : 0;
      if (this.loud >= START_FRAMES) {
        this.state = 'speaking';
        this.quiet = 0;
        heard.started = true;
      }
      return;
    }
    this.quiet = voiced ? 0 : this.quiet + 1;
    if (this.state === 'tail' && this.quiet >= TAIL_FRAMES) {
      this.state = 'quiet';
      this.loud = 0;
    } else if (this.state === 'speaking' && this.quiet >= NOISE_END_FRAMES) {
      this.state = 'quiet';
      this.loud = 0;
      heard.utterances.push('');
    }
  }
}

/** The text as the offline engine speaks it, PCM16 at `rate`. */
export async function fakeSpeech(text: string, rate: number): Promise<Int16Array> {
  const at8k = await synthesizeOfflineSpeech(text);
  if (rate === 8000) return at8k;
  const resampler = new Resampler(8000, rate);
  const head = resampler.push(at8k);
  const tail = resampler.flush();
  const out = new Int16Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** Audio cut into chunks of `ms` (as providers stream their replies). */
export function audioChunks(pcm: Int16Array, rate: number, ms: number): Int16Array[] {
  const per = Math.max(1, Math.round((rate * ms) / 1000));
  const chunks: Int16Array[] = [];
  for (let at = 0; at < pcm.length; at += per) chunks.push(pcm.subarray(at, at + per));
  return chunks;
}

/** Words of a reply's transcript in `count` pieces of about equal size (the transcript streams beside the audio). */
export function transcriptPieces(text: string, count: number): string[] {
  const words = text.split(/(?<=\s)/);
  const per = Math.max(1, Math.ceil(words.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let at = 0; at < words.length; at += per) pieces.push(words.slice(at, at + per).join(''));
  return pieces;
}

/** The tokens a reply is said to cost when the script does not say: deterministic, from its size. */
export function defaultUsage(
  reply: FakeRealtimeReply,
  replyIndex: number,
): { inputTokens: number; outputTokens: number } {
  const words = (reply.say ?? '').split(/\s+/).filter(Boolean).length;
  return {
    inputTokens: 100 + 10 * replyIndex,
    outputTokens: 3 * words + 10 * (reply.toolCalls?.length ?? 0),
  };
}

/** Waits between two chunks of a reply (0: the next turn of the event loop). */
export function chunkGap(ms: number): Promise<void> {
  return ms > 0 ? sleep(ms).then(() => undefined) : new Promise((resolve) => setImmediate(resolve));
}
