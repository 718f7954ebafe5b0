// One call's conversation: caller audio -> VAD/endpointing -> STT -> the agent's model (streaming, with tools) ->
// TTS sentence by sentence -> paced audio to the carrier. This file keeps the turn loop (the caller's turns, the
// agent's replies and their tool rounds, the call's lines and its end); the policies acting on the call are units
// on the conversation's port (conversation-port.ts): turn-taking/ (barge-in, hold, backchannels, early replies),
// idle/, limits/, call-control/ (end, transfer, opt-out, keys, acknowledgements, voicemail) and tools/ (the tool
// runner, late answers). Pure TypeScript: everything it touches comes in through ConversationOptions.

import {
  CALL_VARIABLES_MAX_BYTES,
  DtmfDefaults,
  endpointBoundsOf,
  TOOL_CALLS_PER_CALL_MAX,
  TurnTakingDefaults,
  type AgentSettings,
  type LlmProviderName,
  type SttProviderName,
  type TurnLatency,
  type TurnProviders,
  type TurnTakingConfig,
  type VoiceToolCallRecord,
  type VoiceTranscriptRequest,
} from '@vap/messages';
import type { ChatMessage } from '@vap/llm';
import type { AmbienceLoop, MediaStreamEvent, MediaStreamNotice } from '@vap/media';
import type { SttProvider, TtsProvider } from '@vap/speech';
import { AgentSpeech, type SpokenLine } from './agent-speech';
import { backgroundAudioFor } from './background-audio';
import { CallControls, leaveVoicemail } from './call-control';
import { CallRecorder } from './call-recorder';
import { CallerInput, MAX_UTTERANCE_MS, type Utterance } from './caller-input';
import {
  voicemailDetected,
  type ConversationOptions,
  type ConversationResult,
  type LiveConversation,
} from './conversation-contract';
import { ConversationEventBus, type ConversationPort, type EndOptions } from './conversation-port';
import { CallerKeypad, type KeypadEntry } from './dtmf/caller-keypad';
import { IdleController } from './idle/idle-controller';
import { watchCallCap } from './limits/call-cap';
import { MediaTime } from './media-time';
import { runModelRound, type AgentModel } from './model-round';
import { Phrases } from './phrases';
import { buildSystemPrompt, substituteVariables } from './prompt';
import { ProviderChain } from './provider-chain';
import { Aborted, ProviderFailure } from './provider-failure';
import { ToolRegistry, type ToolInvocation } from './tools';
import { LateResults } from './tools/late-results';
import { ToolRunner, type ToolRound } from './tools/tool-runner';
import { adoptedRound, EarlyReplies, type EarlyReply } from './turn-taking/early-reply';
import { TurnPolicy } from './turn-taking/turn-policy';

/** Default wall-clock limit for each provider answer (see ConversationOptions.providerTimeoutMs). */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** After a provider failure the apology gets this long (wall ms) per TTS chunk; then the call ends silently. */
export const APOLOGY_TIMEOUT_MS = 3000;

/** end(reason) from outside: media ms the farewell may take before the hang-up goes ahead anyway. */
export const FAREWELL_LIMIT_MS = 6000;

/** Model rounds per caller turn (each tool result goes back to the model once). */
const MAX_MODEL_ROUNDS = 4;

/** One caller turn the agent is answering. */
interface Turn {
  readonly controller: AbortController;
  /** Media ms the caller's speech ended (latency parts count from here). */
  readonly speechEndMs: number;
  /** Media ms the endpointer judged the caller's turn over. */
  readonly endpointAtMs: number;
  /** The first model round, started before the endpoint. */
  readonly early: EarlyReply | null;
  readonly sttFinalAtMs: number;
  /** The STT provider that transcribed the caller's words. */
  readonly stt: SttProviderName;
  /** The model that wrote the reply's latest round. */
  llm: LlmProviderName | null;
  llmFirstTokenAtMs: number | null;
  /** A TTS failure seen while the model was still streaming. */
  failure: ProviderFailure | null;
  /** Transfer or end call under way: the caller can no longer interrupt it. */
  committed: boolean;
  /** Partner functions called in this turn (CUSTOM_FUNCTION_CALLS_PER_TURN). */
  customCalls: number;
  /** A round the agent takes by itself (an async function's answer came): no caller turn, no latency. */
  unprompted?: boolean;
}

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

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

type Phase = 'waiting' | 'live' | 'done';

class Conversation implements LiveConversation {
  readonly done: Promise<ConversationResult>;
  private resolveDone!: (result: ConversationResult) => void;
  private readonly agent: AgentSettings;
  /** The call's variables: the pre-call ones, and what partner functions have set since (setVariables). */
  private variables: Record<string, unknown>;
  private readonly providerTimeoutMs: number;
  private readonly tools: ToolRegistry;
  /** Aborted when the call ends: partner functions still running are given up. */
  private readonly callController = new AbortController();
  /** Tool invocations reported (TOOL_CALLS_PER_CALL_MAX). */
  private toolCallsReported = 0;
  private readonly messages: ChatMessage[];
  private readonly stt: ProviderChain<SttProvider>;
  private readonly tts: ProviderChain<TtsProvider>;
  private readonly models: ProviderChain<AgentModel>;
  /**
   * Lines the platform said outside the model's replies (intro, reprompts, wrap-up), joined to the history when
   * the caller next speaks: pushed at once they could land between a tool call and its result.
   */
  private readonly saidOutsideTurns: AssistantMessage[] = [];
  /** A notice cut by the caller before any of it was heard, said again ahead of the next reply. */
  private unheardNotice: string | null = null;
  private phase: Phase = 'waiting';
  private time: MediaTime | null = null;
  private speech: AgentSpeech | null = null;
  private input: CallerInput | null = null;
  private keypad: CallerKeypad | null = null;
  private recorder: CallRecorder | null = null;
  private readonly ambience: AmbienceLoop | null;
  private turn: Turn | null = null;
  private readonly turnTaking: TurnTakingConfig;
  private readonly lineMeta = new WeakMap<SpokenLine, LineMeta>();
  private reports: Promise<void> = Promise.resolve();
  /** The agent (or the platform) has decided how the call ends; the caller can no longer start turns. */
  private ending = false;
  private finishing = false;
  /** The call ended elsewhere (terminate()): nothing more goes to the carrier, the providers or calls. */
  private terminated = false;
  private decidedReason: string | null = null;
  /** What the carrier's machine detection said: at the start (the call's context), or later (answeredBy()). */
  private answeredByValue: string | null;
  private readonly events = new ConversationEventBus();
  private readonly port: ConversationPort;
  private readonly policy: TurnPolicy;
  private readonly early: EarlyReplies;
  private readonly late: LateResults;
  private readonly controls: CallControls;
  private readonly runner: ToolRunner;

  constructor(private readonly options: ConversationOptions) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.agent = options.context.agent;
    this.variables = { ...(options.context.variables ?? {}) };
    this.providerTimeoutMs = options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
    this.tools = new ToolRegistry(this.agent);
    this.stt = new ProviderChain(options.stt);
    this.tts = new ProviderChain(options.tts);
    this.models = new ProviderChain(options.llm);
    // Rendered before the stream starts (the first call of an asset synthesises its clip), so the media clock
    // and the frame clock start on time.
    this.ambience = backgroundAudioFor(this.agent.background_audio_id, this.agent.background_audio_volume);
    this.messages = [{ role: 'system', content: buildSystemPrompt(this.agent, this.variables) }];
    this.answeredByValue = options.context.answeredBy;
    // Calls started before agents had the setting carry none.
    this.turnTaking = { ...TurnTakingDefaults, ...(this.agent.turn_taking ?? {}) };

    const port = (this.port = this.portOf());
    this.policy = new TurnPolicy(port, () => this.dropTurn());
    // Made before the idle controller: where the agent may fall idle, a late answer is spoken about first.
    this.late = new LateResults(port, {
      floorTaken: () => this.early.pending || this.policy.overlapping || this.runner.open,
      speakUp: () => this.speakUp(),
    });
    new IdleController(port);
    watchCallCap(port);
    this.early = new EarlyReplies(port, {
      blocked: () => this.policy.overlapping || !!this.turn || this.runner.open || !!this.unheardNotice,
      answersWaiting: () => this.late.pending,
      firstRound: (text, signal, onSentence, onFirstDelta) =>
        runModelRound({
          models: this.models,
          request: {
            messages: [...this.messages, ...this.saidOutsideTurns, { role: 'user', content: text }],
            tools: this.tools.specs,
          },
          signal,
          timeoutMs: this.providerTimeoutMs,
          onSentence,
          onFirstDelta,
          onFallback: (failure, next) => this.options.onProviderFallback?.(failure, next),
        }),
    });
    this.controls = new CallControls(port, options.platform, options.dtmfRoute ?? 'in_band');
    this.runner = new ToolRunner(port, {
      tools: this.tools,
      history: this.messages,
      controls: this.controls,
      services: options.platform,
      lateResults: this.late,
      callSignal: this.callController.signal,
      setVariables: (values) => this.setVariables(values),
      record: (entry) => this.recordToolCall(entry),
      notify: (notice) => this.notify(notice),
    });
  }

  /** The conversation as its units see it. */
  private portOf(): ConversationPort {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    return {
      agent: this.agent,
      turnTaking: this.turnTaking,
      events: this.events,
      get clock() {
        return self.time!;
      },
      get voice() {
        return self.speech!;
      },
      get caller() {
        return self.input!;
      },
      get variables() {
        return self.variables;
      },
      get live() {
        return self.phase === 'live';
      },
      get ending() {
        return self.ending;
      },
      get turn() {
        return self.turn;
      },
      say: (text, options) => this.say(text, options),
      endWith: (reason, farewell, options) => this.endWith(reason, farewell, options),
      beginEnding: (reason) => this.beginEnding(reason),
      finish: (reason, hangup) => this.finish(reason, hangup),
      report: (line) => this.report(line),
      observe: (event) => this.options.turnTaking?.observe(event),
      onError: (error, context) => this.options.onError?.(error, context),
    };
  }

  onEvent(event: MediaStreamEvent): void {
    if (this.phase === 'done') return;
    switch (event.type) {
      case 'started':
        if (this.phase === 'waiting') this.start();
        return;
      case 'audio':
        this.input?.audio(event.payload);
        return;
      case 'played':
        this.speech?.onPlayed(event.mark);
        return;
      case 'stopped':
        void this.streamGone(undefined, event.reason);
        return;
      case 'dtmf':
        this.keypad?.press(event.digit);
        return;
      case 'text':
        this.callerTyped(event.text);
        return;
      case 'cleared':
        // Our side already dropped the audio on clear.
        return;
    }
  }

  onClosed(cutReason?: string): void {
    void this.streamGone(cutReason);
  }

  end(reason: string): boolean {
    if (this.ending || this.finishing || this.phase === 'done') return false;
    if (this.phase === 'waiting') {
      this.ending = true;
      void this.finish(reason, true);
      return true;
    }
    void this.endWith(reason, Phrases.endFarewell, { interrupt: true, limitMs: FAREWELL_LIMIT_MS });
    return true;
  }

  terminate(): boolean {
    if (this.phase === 'done' || this.terminated) return false;
    this.terminated = true;
    this.ending = true;
    if (this.input) this.input.listening = false;
    // A finish already under way (waiting on its hang-up or a farewell) stops what it would stop after it.
    if (this.finishing) void this.stopWork();
    else void this.finish(this.decidedReason, false);
    return true;
  }

  answeredBy(answeredBy: string): boolean {
    if (this.ending || this.finishing || this.phase === 'done') return false;
    if (!voicemailDetected(this.agent, answeredBy)) return false;
    this.answeredByValue = answeredBy;
    // Before the stream started, start() finds the machine answer; once live, whatever plays gives way.
    if (this.phase === 'live') leaveVoicemail(this.port, { interrupt: true });
    return true;
  }

  // ---- start -------------------------------------------------------------------------------------------

  private start(): void {
    this.phase = 'live';
    const time = (this.time = new MediaTime(this.options.timeScale));
    this.recorder = this.agent.enable_recording ? this.openRecorder() : null;
    const onFallback = (failure: ProviderFailure, next: string) =>
      this.options.onProviderFallback?.(failure, next);
    this.speech = new AgentSpeech({
      tts: this.tts,
      voice: this.options.voice,
      transport: this.options.transport,
      time,
      ambience: this.ambience,
      recorder: this.recorder,
      providerTimeoutMs: this.providerTimeoutMs,
      pacingObserver: this.options.pacing,
      onLineDone: (line) => this.lineDone(line),
      onLineStarted: () => this.notify({ type: 'agent.speaking', speaking: true }),
      onFallback,
    });
    this.input = new CallerInput({
      stt: this.stt,
      languages: [...this.agent.spoken_languages],
      time,
      recorder: this.recorder,
      providerTimeoutMs: this.providerTimeoutMs,
      maxUtteranceMs: this.options.maxUtteranceMs ?? MAX_UTTERANCE_MS,
      endpointing: endpointBoundsOf(this.turnTaking),
      onSpeechStart: (utterance) => this.callerStartedSpeaking(utterance),
      onPartial: (utterance) => this.callerWordsSoFar(utterance),
      onPause: (utterance) => this.early.start(utterance),
      onResume: () => this.early.discard(),
      onUtterance: (utterance, text, finalAtMs, stt, language) => {
        if (language && text) this.options.onCallerLanguage?.(language);
        this.callerSaid(utterance, text, finalAtMs, stt);
      },
      onFailure: (failure) => void this.providerFailed(failure),
      onFallback,
    });
    // Calls started before agents had the setting carry none: keys are ignored then.
    this.keypad = new CallerKeypad({
      config: this.agent.dtmf ?? DtmfDefaults,
      clock: time,
      onKey: () => this.callerPressedKey(),
      onEntry: (entry) => this.callerKeyedIn(entry),
    });
    this.speech.start();
    void this.input.open();

    if (voicemailDetected(this.agent, this.answeredByValue)) {
      leaveVoicemail(this.port, { interrupt: false });
      return;
    }
    // The call cap's timers are set, and without an intro the idle timer arms.
    this.events.emit('live', { intro: !!this.agent.intro_message });
    if (this.agent.intro_message) this.say(substituteVariables(this.agent.intro_message, this.variables));
  }

  private openRecorder(): CallRecorder | null {
    const { openRecording, onRecordingLost } = this.options;
    if (!openRecording) return null;
    try {
      return new CallRecorder(openRecording(), onRecordingLost);
    } catch (error) {
      onRecordingLost?.(error as Error);
      return null;
    }
  }

  // ---- caller ------------------------------------------------------------------------------------------

  private callerStartedSpeaking(utterance: Utterance): void {
    this.events.emit('callerStarted', { by: 'speech' });
    this.policy.callerStarted(utterance);
  }

  /** Gives the agent's turn up (barge-in): its model, synthesis and tools stop. */
  private dropTurn(): void {
    this.turn?.controller.abort();
    this.turn = null;
  }

  /** The words so far of an utterance: they may settle an overlap, or start an early reply at a pause. */
  private callerWordsSoFar(utterance: Utterance): void {
    if (utterance.partial)
      this.notify({ type: 'transcript', role: 'user', text: utterance.partial, final: false });
    if (this.policy.callerWords(utterance)) return;
    if (utterance.paused) this.early.start(utterance);
  }

  private callerSaid(utterance: Utterance, text: string, finalAtMs: number, stt: SttProviderName): void {
    if (this.phase !== 'live') return;
    this.takeWords(utterance, text, finalAtMs, stt);
    this.events.emit('callerWords', { text });
  }

  /** The utterance's final words: a backchannel kept in the transcript, or the caller's turn. */
  private takeWords(utterance: Utterance, text: string, finalAtMs: number, stt: SttProviderName): void {
    const said = () => this.report({ role: 'user', content: text, atMs: Math.round(utterance.startedAtMs) });
    if (this.policy.callerFinished(utterance, text) === 'backchannel') {
      // Kept in the transcript, but no turn of the model's.
      if (text) said();
      return;
    }
    if (!text) return this.early.discard();
    said();
    if (this.ending || this.turn?.committed) return this.early.discard();
    const early = this.early.adopt(utterance, text);
    const speechEndMs = utterance.endedAtMs ?? finalAtMs;
    this.takeTurn(text, early, {
      speechEndMs,
      endpointAtMs: utterance.endpointAtMs ?? speechEndMs,
      sttFinalAtMs: finalAtMs,
      stt,
    });
  }

  /** A key press takes the floor as speech does: the agent stops, an early reply to older words is dropped. */
  private callerPressedKey(): void {
    this.events.emit('callerStarted', { by: 'key' });
    this.policy.callerTookFloor();
  }

  /** A keypad entry is a caller turn of its own, in the documented form ("[keypad] 4711 #"). */
  private callerKeyedIn(entry: KeypadEntry): void {
    if (this.phase !== 'live') return;
    this.report({ role: 'user', content: entry.text, atMs: Math.round(entry.startedAtMs) });
    if (this.ending || this.turn?.committed) return;
    this.takeTurnNow(entry.text);
  }

  /**
   * A line the caller typed (a browser session's user_text) is their final utterance: it takes the floor as
   * speech does (barge-in, an early reply to older words dropped, the idle timer reset), is in the transcript as
   * the user's, and is the caller's turn. A line typed while the agent ends the call or commits a transfer is kept
   * in the transcript only, as spoken words are then.
   */
  private callerTyped(text: string): void {
    if (this.phase !== 'live') return;
    this.events.emit('callerStarted', { by: 'text' });
    this.report({ role: 'user', content: text, atMs: Math.round(this.time!.now()) }, { typed: true });
    if (!this.ending && !this.turn?.committed) {
      this.policy.bargeIn();
      this.takeTurnNow(text);
    }
    this.events.emit('callerWords', { text });
  }

  /** A turn of words known at once (keys, a typed line): no speech, no endpointing. */
  private takeTurnNow(text: string): void {
    const now = this.time!.now();
    this.takeTurn(text, null, {
      speechEndMs: now,
      endpointAtMs: now,
      sttFinalAtMs: now,
      stt: this.stt.current.name,
    });
  }

  /** The caller's turn (words or keys) goes to the model; the agent's reply is the turn. */
  private takeTurn(
    text: string,
    early: EarlyReply | null,
    at: Pick<Turn, 'speechEndMs' | 'endpointAtMs' | 'sttFinalAtMs' | 'stt'>,
  ): void {
    this.runner.closeOpen();
    this.messages.push(...this.saidOutsideTurns.splice(0), { role: 'user', content: text });
    if (this.unheardNotice) {
      // Said before the reply, and in the history before it, so the model knows the caller has now heard it.
      this.say(this.unheardNotice, { notice: true });
      this.unheardNotice = null;
      this.messages.push(...this.saidOutsideTurns.splice(0));
    }
    this.turn?.controller.abort();
    this.startTurn({
      controller: early?.controller ?? new AbortController(),
      ...at,
      early,
      llm: null,
      llmFirstTokenAtMs: null,
      failure: null,
      committed: false,
      customCalls: 0,
    });
  }

  /** The agent speaks by itself about async answers that came (LateResults): a round with no caller turn. */
  private speakUp(): void {
    this.messages.push(...this.saidOutsideTurns.splice(0));
    const now = this.time!.now();
    this.startTurn({
      controller: new AbortController(),
      speechEndMs: now,
      endpointAtMs: now,
      early: null,
      sttFinalAtMs: now,
      stt: this.stt.current.name,
      llm: null,
      llmFirstTokenAtMs: null,
      failure: null,
      committed: false,
      customCalls: 0,
      unprompted: true,
    });
  }

  /** Runs the agent's turn; a failure of its providers ends the call. */
  private startTurn(turn: Turn): void {
    this.turn = turn;
    this.events.emit('turnStarted', { unprompted: turn.unprompted === true });
    void this.respond(turn)
      .catch((error: unknown) => {
        if (
          error instanceof Aborted ||
          (turn.controller.signal.aborted && !(error instanceof ProviderFailure))
        )
          return;
        void this.providerFailed(
          error instanceof ProviderFailure ? error : new ProviderFailure('llm', error),
        );
      })
      .finally(() => {
        if (this.turn === turn) this.turn = null;
        this.events.emit('turnEnded', {});
      });
  }

  // ---- the agent's turn --------------------------------------------------------------------------------

  private async respond(turn: Turn): Promise<void> {
    const speech = this.speech!;
    const signal = turn.controller.signal;
    let meta: LineMeta = { turn: true, source: turn, history: [] };
    const firstMeta = meta;
    const first = speech.line({
      signal,
      onFirstFrame: (atMs) => {
        if (!turn.unprompted) firstMeta.latency = this.latencyOf(turn, first, atMs);
      },
    });
    this.lineMeta.set(first, meta);
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
    const say = (sentence: string) => sayOn(current, sentence);
    // A turn's spoken lines: the reply is one transcript line until something is said apart from it (a partner
    // function's on_start, on_delay, on_failure); that is a line of its own, stamped when it was heard, and the
    // reply goes on in a new line after it.
    const round: ToolRound = {
      turn,
      say,
      sayApart: (sentence) => {
        current.end();
        const own = speech.line({ signal });
        this.lineMeta.set(own, { turn: false, history: [] });
        sayOn(own, sentence);
        own.end();
        current = speech.line({ signal });
        meta = { turn: true, source: turn, history: [] };
        this.lineMeta.set(current, meta);
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
    };

    try {
      for (let n = 0; n < MAX_MODEL_ROUNDS; n++) {
        // Async functions' answers that came since the last round join here, never between a tool call and
        // its result.
        if (!(n === 0 && turn.early)) this.messages.push(...this.late.take());
        const { text, calls, model } =
          n === 0 && turn.early
            ? await adoptedRound(turn, turn.early, say)
            : await runModelRound({
                models: this.models,
                request: { messages: [...this.messages], tools: this.tools.specs },
                signal,
                timeoutMs: this.providerTimeoutMs,
                onSentence: say,
                onFirstDelta: () => (turn.llmFirstTokenAtMs ??= this.time!.now()),
                onFallback: (failure, next) => this.options.onProviderFallback?.(failure, next),
              });
        turn.llm = model;
        const entry: AssistantMessage = {
          role: 'assistant',
          content: text || null,
          ...(calls.length ? { tool_calls: calls } : {}),
        };
        this.messages.push(entry);
        if (text) meta.history.push(entry);
        if (calls.length === 0) break;
        if ((await this.runner.run(round, calls)) === 'stop') return;
      }
      current.end();
      await Promise.all(queued);
      if (turn.failure) throw turn.failure;
    } catch (error) {
      throw turn.failure ?? error;
    } finally {
      current.end();
    }
  }

  /**
   * Merges what a function set into the call's variables. The system prompt is rendered again with them, so
   * the prompt's {{name}} placeholders (and the end-call, transfer and voicemail messages) read the new values
   * from the next model round on.
   */
  private setVariables(values: Record<string, unknown>): boolean {
    const merged = { ...this.variables, ...values };
    // The calls service keeps them to the same bound: what the prompt reads is what the session shows.
    if (Buffer.byteLength(JSON.stringify(merged)) > CALL_VARIABLES_MAX_BYTES) return false;
    this.variables = merged;
    this.messages[0] = { role: 'system', content: buildSystemPrompt(this.agent, this.variables) };
    return true;
  }

  /** Reports one tool invocation to the calls service, in order with the rest (bounded per call). */
  private recordToolCall(entry: ToolInvocation): void {
    if (this.terminated || this.toolCallsReported >= TOOL_CALLS_PER_CALL_MAX) return;
    this.toolCallsReported++;
    const record: VoiceToolCallRecord = { ...entry, atMs: entry.atMs ?? Math.round(this.time?.now() ?? 0) };
    this.reports = this.reports
      .then(() => this.options.platform.toolCall(record))
      .catch((error: unknown) => this.options.onError?.(error, 'tool call'));
  }

  /** Who served a turn: after a fallback within it, the provider that took over. */
  private providersOf(turn: Turn, line: SpokenLine): TurnProviders {
    return {
      stt: turn.stt,
      llm: turn.llm ?? this.models.current.name,
      tts: line.ttsProvider ?? this.tts.current.name,
    };
  }

  private latencyOf(turn: Turn, line: SpokenLine, firstFrameAtMs: number): TurnLatency {
    const since = (atMs: number | null) =>
      Math.max(0, Math.round((atMs ?? firstFrameAtMs) - turn.speechEndMs));
    const firstFrame = since(firstFrameAtMs);
    return {
      endpointing_ms: since(turn.endpointAtMs),
      stt_final_ms: since(turn.sttFinalAtMs),
      llm_first_token_ms: since(turn.llmFirstTokenAtMs),
      tts_first_byte_ms: since(line.ttsFirstByteAtMs),
      first_frame_out_ms: firstFrame,
      // The clock keeps at most a frame ahead of playback, so the caller hears the first frame as it is sent.
      voice_to_voice_ms: firstFrame,
    };
  }

  // ---- lines ---------------------------------------------------------------------------------------

  /**
   * Speaks a line of its own (intro, reprompt, wrap-up, transfer failure, the transfer's acknowledgement), recorded
   * in the model's history (unless `remember` is false) so it knows what the caller was told. A TTS failure ends
   * the call.
   */
  private say(text: string, options: { remember?: boolean; notice?: boolean } = {}): void {
    const speech = this.speech;
    if (!speech) return;
    const history: AssistantMessage[] = [];
    if (options.remember ?? true) {
      history.push({ role: 'assistant', content: text });
      this.saidOutsideTurns.push(history[0]);
    }
    const line = speech.line();
    this.lineMeta.set(line, { turn: false, history, ...(options.notice ? { notice: text } : {}) });
    line.say(text).catch((error: unknown) => void this.providerFailed(error as ProviderFailure));
    line.end();
  }

  private lineDone(line: SpokenLine): void {
    if (line.firstFrameAtMs !== null) this.notify({ type: 'agent.speaking', speaking: false });
    const meta = this.lineMeta.get(line);
    if (line.interrupted && meta) {
      // The model should remember what the caller heard, not what it meant to say. A reply cut while the model
      // was still writing has no history entry yet (the stream was abandoned): it gets one now.
      if (meta.history.length === 0 && meta.turn && line.text)
        this.messages.push({ role: 'assistant', content: line.text });
      meta.history.forEach((entry, i) => (entry.content = i === 0 ? line.text || null : null));
      if (meta.notice && !line.text && !this.ending) this.unheardNotice = meta.notice;
    }
    if (line.text) {
      this.report({
        role: 'bot',
        content: line.text,
        atMs: Math.round(line.firstFrameAtMs ?? this.time!.now()),
        ...(meta?.latency ? { latency: meta.latency } : {}),
        ...(meta?.latency && meta.source ? { providers: this.providersOf(meta.source, line) } : {}),
        ...(line.interrupted ? { interrupted: true } : {}),
      });
      if (meta?.latency) this.options.latency?.observe(meta.latency);
    }
    this.events.emit('agentLineDone', { line });
  }

  private report(
    line: Omit<VoiceTranscriptRequest, 'callId' | 'callSeconds'>,
    options: { typed?: boolean } = {},
  ): void {
    this.notify({
      type: 'transcript',
      role: line.role === 'bot' ? 'agent' : 'user',
      text: line.content,
      final: true,
      ...(options.typed ? { typed: true as const } : {}),
    });
    const callSeconds = Math.round(this.time?.now() ?? 0) / 1000;
    this.reports = this.reports
      .then(() => this.options.platform.transcript({ ...line, callSeconds }))
      .catch((error: unknown) => this.options.onError?.(error, 'transcript'));
  }

  // ---- ending ------------------------------------------------------------------------------------------

  /** Tells the transport's client (a browser shows it; carriers ignore it), never after the call ended. */
  private notify(notice: MediaStreamNotice): void {
    if (this.terminated || this.phase === 'done') return;
    try {
      this.options.transport.notify?.(notice);
    } catch (error) {
      this.options.onError?.(error, 'notify');
    }
  }

  /** Marks the call as ending for `reason`; false when it already is. */
  private beginEnding(reason: string): boolean {
    if (this.ending || this.phase !== 'live') return false;
    this.ending = true;
    this.decidedReason = reason;
    this.events.emit('ending', { reason });
    if (this.input) this.input.listening = false;
    this.keypad?.stop();
    return true;
  }

  /** The platform ends the call: stop the turn, say the farewell (bounded), hang up. */
  private async endWith(reason: string, farewell: string | null, options: EndOptions): Promise<void> {
    if (!this.beginEnding(reason)) return;
    this.turn?.controller.abort();
    this.turn = null;
    const speech = this.speech!;
    if (options.interrupt) speech.interrupt();
    if (farewell) {
      const spoken = speech.speak(farewell, { timeoutMs: options.timeoutMs }).then(
        () => undefined,
        (error: unknown) => this.options.onError?.(error, 'farewell'),
      );
      await (options.limitMs ? Promise.race([spoken, this.time!.sleep(options.limitMs)]) : spoken);
    }
    await this.finish(reason, true);
  }

  private async providerFailed(failure: ProviderFailure): Promise<void> {
    if (this.phase !== 'live' || this.finishing) return;
    this.options.onError?.(failure, 'provider');
    if (this.ending) {
      // Already saying goodbye (a farewell's TTS failed): hang up as decided, without the rest of it.
      this.speech!.interrupt();
      return;
    }
    // Apologise through TTS once more with a short timeout; if TTS itself is down this fails fast and the call
    // ends without the apology rather than hanging.
    await this.endWith(failure.endCallReason, Phrases.apology, {
      interrupt: true,
      timeoutMs: APOLOGY_TIMEOUT_MS,
    });
  }

  /**
   * The carrier's stream ended. A stream the platform cut (`cutReason`) leaves a call the carrier may still
   * hold: it is hung up, with the reason the conversation had decided, else the cut's. A far end that said why
   * it stopped (`stopReason`, a browser's caller_ended) ends the call with that reason when nothing was decided.
   */
  private async streamGone(cutReason?: string, stopReason?: string): Promise<void> {
    const hangup = cutReason !== undefined;
    if (this.phase === 'waiting') {
      this.phase = 'live';
      await this.finish(cutReason ?? stopReason ?? null, hangup);
      return;
    }
    if (this.finishing || this.phase !== 'live') {
      this.speech?.stop();
      return;
    }
    this.turn?.controller.abort();
    this.turn = null;
    if (this.input) this.input.listening = false;
    // The caller hung up mid-sentence: report what they heard. A transfer in flight is what ended the stream.
    this.speech?.stop();
    let reason = this.decidedReason ?? cutReason ?? stopReason ?? null;
    const transfer = this.controls.pendingTransfer;
    if (transfer && (await transfer)) reason = 'transferred';
    await this.finish(reason, hangup && reason !== 'transferred');
  }

  /** Hangs up (when asked), stops every timer and provider, waits for the transcript, settles `done`. */
  private async finish(reason: string | null, hangup: boolean): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    // A call that has ended already has nothing to hang up.
    if (hangup && reason && !this.terminated) {
      await this.options.platform
        .hangup(reason)
        .catch((error: unknown) => this.options.onError?.(error, 'hangup'));
    }
    const mediaSeconds = (this.time?.now() ?? 0) / 1000;
    await this.stopWork();
    await this.reports;
    // What is left of the recording (a window or two) and its header; the rest went out as the call ran.
    const recording = this.recorder ? await this.recorder.close() : null;
    this.phase = 'done';
    this.resolveDone({
      endCallReason: reason,
      mediaSeconds,
      recording,
      ...(this.speech ? { pacing: this.speech.pacing } : {}),
    });
  }

  /** Aborts the turn (model, synthesis, tools), cancels every timer, stops the audio and closes STT. */
  private stopWork(): Promise<void> {
    this.turn?.controller.abort();
    this.turn = null;
    this.events.emit('closed', {});
    this.keypad?.stop();
    this.callController.abort();
    this.speech?.stop();
    this.time?.stop();
    return this.input?.close() ?? Promise.resolve();
  }
}

/** Starts one call's conversation; feed it the carrier's events, await `done`. */
export function createConversation(options: ConversationOptions): LiveConversation {
  return new Conversation(options);
}
