// The agent's lines on the call: the replies of its turns and the lines the platform says outside them. Each is
// reported once it is done, and the model's history is corrected to what the caller heard of it.

import type { TurnLatency, TurnModelUsage, TurnProviders } from '@vap/messages';
import type { ChatMessage } from '@vap/llm';
import type { ModelIdentity } from './model-round';
import type { AgentSpeech, SpokenLine } from './agent-speech';
import { latencyOf, providersOf, type Turn } from './agent-turn';
import type { CallTranscript } from './call-transcript';
import type { TurnLatencySink } from './conversation-contract';
import { Aborted, type ProviderFailure } from './provider-failure';
import type { ToolRound } from './tools/tool-runner';

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

interface LineMeta {
  /** The line answers a caller turn (its text comes from the model). */
  turn: boolean;
  /** The caller turn it answers. */
  source?: Turn;
  latency?: TurnLatency;
  /** Assistant messages this line speaks, corrected to what was heard when it is cut. */
  history: AssistantMessage[];
  /** A notice the caller must hear (the wrap-up): cut before any of it played, it opens the next reply. */
  notice?: string;
}

/** A turn's reply as the turn loop writes it. */
export interface TurnReply extends ToolRound {
  /** The model's message the reply's current line speaks (corrected to what was heard if it is cut). */
  remember(entry: AssistantMessage): void;
  /** Ends the reply's line; waits for all of it to be said, and throws the TTS failure the turn met, if any. */
  settle(): Promise<void>;
  /** Ends the reply's current line (nothing more goes to it). */
  end(): void;
}

export interface AgentLinesOptions {
  speech(): AgentSpeech | null;
  /** The model's history. */
  history: ChatMessage[];
  transcript: CallTranscript;
  nowMs(): number;
  ending(): boolean;
  /** The providers serving the call now (a turn that fell back names the one that took over). */
  current(): { stt: TurnProviders['stt']; llm: ModelIdentity; tts: TurnProviders['tts'] };
  latency?: TurnLatencySink;
  /** The tokens of `model`'s rounds not yet on a line, for the line it wrote now (ModelUsageTally.take). */
  usage?(model: ModelIdentity): TurnModelUsage | undefined;
  /** A line of the platform's could not be synthesised: the call ends. */
  failed(failure: ProviderFailure): void;
}

export class AgentLines {
  private readonly meta = new WeakMap<SpokenLine, LineMeta>();
  /**
   * Lines the platform said outside the model's replies (intro, reprompts, wrap-up), joined to the history when
   * the caller next speaks: pushed at once they could land between a tool call and its result.
   */
  private readonly saidOutside: AssistantMessage[] = [];
  /** A notice cut by the caller before any of it was heard, said again ahead of the next reply. */
  private unheard: string | null = null;

  constructor(private readonly options: AgentLinesOptions) {}

  /** The lines said outside the turns that the history does not hold yet. */
  get said(): readonly AssistantMessage[] {
    return this.saidOutside;
  }

  /** A notice the caller has not heard waits to open the next reply. */
  get noticeUnheard(): boolean {
    return !!this.unheard;
  }

  /** The lines said outside the turns join the history (before the caller's words or a round of the agent's). */
  joinHistory(): void {
    this.options.history.push(...this.saidOutside.splice(0));
  }

  /** A notice the caller did not hear is said again ahead of the reply, and is in the history before it. */
  sayUnheardNotice(): void {
    if (!this.unheard) return;
    this.say(this.unheard, { notice: true });
    this.unheard = null;
    this.joinHistory();
  }

  /**
   * Speaks a line of its own (intro, reprompt, wrap-up, transfer failure, the transfer's acknowledgement), recorded
   * in the model's history (unless `remember` is false) so it knows what the caller was told. A TTS failure ends
   * the call.
   */
  say(text: string, options: { remember?: boolean; notice?: boolean } = {}): void {
    const speech = this.options.speech();
    if (!speech) return;
    const history: AssistantMessage[] = [];
    if (options.remember ?? true) {
      history.push({ role: 'assistant', content: text });
      this.saidOutside.push(history[0]);
    }
    const line = speech.line();
    this.meta.set(line, { turn: false, history, ...(options.notice ? { notice: text } : {}) });
    line.say(text).catch((error: unknown) => this.options.failed(error as ProviderFailure));
    line.end();
  }

  /** A line finished (played out or cut): the history keeps what was heard, the transcript gets the line. */
  done(line: SpokenLine): void {
    const { transcript } = this.options;
    if (line.firstFrameAtMs !== null) transcript.notify({ type: 'agent.speaking', speaking: false });
    const meta = this.meta.get(line);
    if (line.interrupted && meta) {
      // The model should remember what the caller heard, not what it meant to say. A reply cut while the model
      // was still writing has no history entry yet (the stream was abandoned): it gets one now.
      if (meta.history.length === 0 && meta.turn && line.text)
        this.options.history.push({ role: 'assistant', content: line.text });
      meta.history.forEach((entry, i) => (entry.content = i === 0 ? line.text || null : null));
      if (meta.notice && !line.text && !this.options.ending()) this.unheard = meta.notice;
    }
    if (!line.text) return;
    // A line of a turn (its first, a later one after a line apart, one the agent said by itself) names the model
    // that wrote it, with the tokens that model's rounds cost since its last line.
    const source = meta?.turn ? meta.source : undefined;
    const current = this.options.current();
    const written = source ? providersOf(source, line, current) : null;
    const usage = source ? this.options.usage?.(source.llm ?? current.llm) : undefined;
    transcript.line({
      role: 'bot',
      content: line.text,
      atMs: Math.round(line.firstFrameAtMs ?? this.options.nowMs()),
      ...(meta?.latency ? { latency: meta.latency } : {}),
      ...(written ? { providers: written } : {}),
      ...(usage ? { usage } : {}),
      // A line of the platform's own (the intro, a reprompt) was spoken by the call's TTS and written by no model.
      ...(meta && !meta.turn ? { providers: this.platformProviders(line) } : {}),
      ...(line.interrupted ? { interrupted: true } : {}),
    });
    if (meta?.latency) this.options.latency?.observe(meta.latency);
  }

  /** The providers of a line the platform said itself: the call's transcriber, no model, the TTS that spoke it. */
  private platformProviders(line: SpokenLine): TurnProviders {
    const { stt, tts } = this.options.current();
    return { stt, llm: null, llm_model: null, tts: line.ttsProvider ?? tts };
  }

  /**
   * The reply of `turn`. It is one transcript line until something is said apart from it (a partner function's
   * on_start, on_delay, on_failure): that is a line of its own, stamped when it was heard, and the reply goes on
   * in a new line after it.
   */
  reply(turn: Turn): TurnReply {
    const speech = this.options.speech()!;
    const signal = turn.controller.signal;
    let meta: LineMeta = { turn: true, source: turn, history: [] };
    const firstMeta = meta;
    const first = speech.line({
      signal,
      onFirstFrame: (atMs) => {
        if (!turn.unprompted) firstMeta.latency = latencyOf(turn, first, atMs);
      },
    });
    this.meta.set(first, meta);
    let current = first;
    const queued: Promise<void>[] = [];
    const sayOn = (line: SpokenLine, sentence: string) => {
      queued.push(
        line.say(sentence).catch((error: unknown) => {
          turn.failure ??= error as ProviderFailure;
          turn.controller.abort();
        }),
      );
    };
    return {
      turn,
      say: (sentence) => sayOn(current, sentence),
      sayApart: (sentence) => {
        current.end();
        const own = speech.line({ signal });
        this.meta.set(own, { turn: false, history: [] });
        sayOn(own, sentence);
        own.end();
        current = speech.line({ signal });
        meta = { turn: true, source: turn, history: [] };
        this.meta.set(current, meta);
      },
      finishSaying: async () => {
        current.end();
        await Promise.all(queued);
        await current.done;
      },
      play: async (label, audio) => {
        const line = speech.line({ signal });
        const played = line.play(label, audio);
        line.end();
        await played;
        await line.done;
        if (signal.aborted) throw new Aborted();
        return !line.interrupted;
      },
      remember: (entry) => meta.history.push(entry),
      settle: async () => {
        current.end();
        await Promise.all(queued);
        if (turn.failure) throw turn.failure;
      },
      end: () => current.end(),
    };
  }
}
