// One call's conversation: caller audio -> VAD/endpointing -> STT -> the agent's model (streaming, with tools) ->
// TTS sentence by sentence -> paced audio to the carrier, with barge-in, and every agent field acting on the call
// (intro, voicemail, idle reprompts, max duration, tool acknowledgements, transfer, end call, background audio,
// recording). Pure TypeScript: everything it touches comes in through ConversationOptions.

import {
  DtmfDefaults,
  dtmfInputText,
  CALL_VARIABLES_MAX_BYTES,
  CUSTOM_FUNCTION_CALLS_PER_CALL,
  CUSTOM_FUNCTION_CALLS_PER_TURN,
  endpointBoundsOf,
  TOOL_CALL_MAX_ARGUMENT_BYTES,
  TOOL_CALLS_PER_CALL_MAX,
  TurnTakingDefaults,
  type AgentSettings,
  type LlmProviderName,
  type TurnTakingConfig,
  type SttProviderName,
  type TurnLatency,
  type TurnProviders,
  type VoiceToolCallRecord,
  type VoiceTranscriptRequest,
} from '@vap/messages';
import type { ChatMessage, ToolCall } from '@vap/llm';
import type { AmbienceLoop, MediaStreamEvent, MediaStreamNotice } from '@vap/media';
import type { SttProvider } from '@vap/speech';
import type { TtsProvider } from '@vap/speech';
import { AgentSpeech, type SpokenLine } from './agent-speech';
import { backgroundAudioFor } from './background-audio';
import { CallRecorder } from './call-recorder';
import { CallerKeypad, type KeypadEntry } from './dtmf/caller-keypad';
import { sendDtmf } from './dtmf/send-dtmf';
import { CallerInput, MAX_UTTERANCE_MS, type Utterance } from './caller-input';
import {
  voicemailDetected,
  type ConversationOptions,
  type ConversationResult,
  type LiveConversation,
} from './conversation-contract';
import { MediaTime } from './media-time';
import { runModelRound, type AgentModel, type ModelRoundResult } from './model-round';
import { buildSystemPrompt, substituteVariables } from './prompt';
import { ProviderChain } from './provider-chain';
import { Aborted, ProviderFailure } from './provider-failure';
import {
  ToolRegistry,
  toolAckPhrase,
  TRANSFER_CALL_TOOL,
  type ConversationTool,
  type ToolInvocation,
  type ToolTurn,
} from './tools';
import { bargeInOf, completenessOf, sameWords } from './turn-taking/utterance-text';

/**
 * user_idle_enabled: after the agent finished speaking, this much media time of caller silence brings "Are you
 * still there?"; the same again after the reprompt ends the call (user_idle_timeout). 8 s is long enough for a
 * caller to think or look something up, short enough that a dropped caller is not billed for long.
 */
export const IDLE_REPROMPT_MS = 8000;
/**
 * Idle is silence the caller's line carried, not time alone: a stream that stalled (no frames for a while, on
 * the carrier's side or while this process was busy) is waited out until the caller's audio has covered the
 * silence, short of this much slack for frames still on their way.
 */
export const IDLE_STREAM_SLACK_MS = 1000;

/** max_call_duration_secs: the wrap-up line comes this long before the cap. */
export const WRAP_UP_LEAD_SECS = 30;
/** max_call_duration_secs: the wrap-up and farewell are synthesised this long before the wrap-up is due. */
export const CAP_PREPARE_AHEAD_SECS = 10;

/** Default wall-clock limit for each provider answer (see ConversationOptions.providerTimeoutMs). */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** After a provider failure the apology gets this long (wall ms) per TTS chunk; then the call ends silently. */
export const APOLOGY_TIMEOUT_MS = 3000;

/** end(reason) from outside: media ms the farewell may take before the hang-up goes ahead anyway. */
export const FAREWELL_LIMIT_MS = 6000;
/**
 * max_call_duration_secs: the farewell starts this long before the cap. Offline voices take about 3.7 s to say
 * it; the rest is room for synthesis and the carrier's marks on a busy replica.
 */
export const CAP_FAREWELL_LEAD_MS = 6000;
/**
 * max_call_duration_secs: the hang-up goes ahead this long before the cap even if the farewell is still playing,
 * so the carrier's hang-up lands inside the cap and the call is never billed past it.
 */
export const CAP_HANGUP_MARGIN_MS = 250;

/**
 * Caller sound over the agent whose words are not known yet makes the agent go quiet (hold) after this much media
 * time: longer than an acknowledgement ("yeah", "mm-hmm" last well under it, and their words are known by then),
 * short enough that a caller who talks on is not talked over for long. Words that ask for the floor cut the agent
 * as soon as they are known.
 */
export const BARGE_IN_HOLD_MS = 800;

/** Model rounds per caller turn (each tool result goes back to the model once). */
const MAX_MODEL_ROUNDS = 4;
/** end_call_reason of a call the person asked not to be called again on. */
export const OPTED_OUT = 'opted_out';

export const Phrases = {
  endCallDefault: 'Thank you for calling. Goodbye!',
  transferDefault: 'Please hold while I transfer your call.',
  transferFailed: "I'm sorry, I couldn't transfer your call right now. How else can I help?",
  idleReprompt: 'Are you still there?',
  idleGoodbye: "I haven't heard from you, so I'll end the call now. Goodbye!",
  wrapUp: "We're almost out of time for this call, so let's start wrapping up.",
  maxDurationFarewell: "We've reached the time limit for this call. Thank you, goodbye!",
  apology: "I'm sorry, I'm having technical difficulties right now. Please call back later. Goodbye.",
  endFarewell: "I'm sorry, I have to end the call now. Goodbye.",
  optOutFarewell: "Understood. We won't call you again. Goodbye.",
  optOutFailed:
    "I'm sorry, I couldn't take your number off our list just now. Please tell us again. Goodbye.",
} as const;

/**
 * An early reply: the model's first round, started on the words of a pause that look like a finished turn. Its
 * sentences wait unheard; the final transcript adopts it (same words) or discards it. Tools it asks for run only
 * once adopted.
 */
interface EarlyReply {
  readonly utteranceId: number;
  readonly text: string;
  readonly controller: AbortController;
  readonly round: Promise<ModelRoundResult>;
  /** Sentences written before adoption. */
  readonly sentences: string[];
  /** Where sentences go once adopted. */
  sink: ((sentence: string) => void) | null;
  /** Media ms of the model's first delta, once it came. */
  firstDeltaAtMs: number | null;
  /** The turn that adopted it, told of the first delta if it comes later. */
  adoptedBy: Turn | null;
}

/** Caller sound over the agent, not yet judged: an interruption, or an acknowledgement or noise to talk through. */
interface Overlap {
  readonly utterance: Utterance;
  /** The utterance's audio when the overlap began: the hold counts the caller's audio from there. */
  readonly fromAudioMs: number;
  cancelHold: (() => void) | null;
}

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

/** Tool calls the history holds without their results yet (a turn running them). */
interface OpenToolCalls {
  readonly calls: ToolCall[];
  readonly results: Map<string, string>;
  /** The calls that were started (the others were refused or not reached). */
  readonly ran: Set<string>;
  /** Set once the caller spoke over them: the calls whose results were not known then. */
  closedWithout: ToolCall[] | null;
}

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

/**
 * A turn's spoken lines. The reply is one transcript line until something is said apart from it (a partner
 * function's on_start, on_delay, on_failure): that is a line of its own, stamped when it was heard, and the reply
 * goes on in a new line after it.
 */
interface TurnLines {
  /** The line the reply's sentences go to now. */
  readonly current: SpokenLine;
  /** Adds a sentence to the reply's current line. */
  say(sentence: string): void;
  /** Speaks a line of its own after what the turn said so far; the reply continues in a new line. */
  sayApart(sentence: string): void;
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
  /** Partner functions called on this call (CUSTOM_FUNCTION_CALLS_PER_CALL). */
  private customCalls = 0;
  /** Tool invocations reported (TOOL_CALLS_PER_CALL_MAX). */
  private toolCallsReported = 0;
  /** Async functions' answers not yet in the history (they join at the next model round). */
  private readonly lateResults: ChatMessage[] = [];
  /** An async answer waits for the agent to be idle to be spoken about. */
  private lateRoundWanted = false;
  /** The model's tool calls of a turn whose results are not in the history yet. */
  private openTools: OpenToolCalls | null = null;
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
  private overlap: Overlap | null = null;
  private early: EarlyReply | null = null;
  private readonly turnTaking: TurnTakingConfig;
  private readonly lineMeta = new WeakMap<SpokenLine, LineMeta>();
  private reports: Promise<void> = Promise.resolve();
  /** The agent (or the platform) has decided how the call ends; the caller can no longer start turns. */
  private ending = false;
  private finishing = false;
  /** The call ended elsewhere (terminate()): nothing more goes to the carrier, the providers or calls. */
  private terminated = false;
  private decidedReason: string | null = null;
  private pendingTransfer: Promise<boolean> | null = null;
  private cancelIdle: (() => void) | null = null;
  private idleStrikes = 0;
  /** What the carrier's machine detection said: at the start (the call's context), or later (answeredBy()). */
  private answeredByValue: string | null;

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
    if (this.phase === 'live') this.leaveVoicemail({ interrupt: true });
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
      onPause: (utterance) => this.startEarlyReply(utterance),
      onResume: () => this.discardEarlyReply(),
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
      this.leaveVoicemail({ interrupt: false });
      return;
    }

    const cap = this.agent.max_call_duration_secs;
    if (cap !== null && cap > 0) {
      // The wrap-up line (none for a cap of 30 s or less) and the farewell are synthesised ahead of their
      // moments, so the provider's latency then (a busy replica, a slow TTS) neither delays the wrap-up nor eats
      // into the seconds the farewell has to play before the cap.
      const wrapsUp = cap > WRAP_UP_LEAD_SECS;
      time.after(Math.max(0, cap - WRAP_UP_LEAD_SECS - CAP_PREPARE_AHEAD_SECS) * 1000, () => {
        if (this.ending) return;
        if (wrapsUp) this.speech?.prepare(Phrases.wrapUp);
        this.speech?.prepare(Phrases.maxDurationFarewell);
      });
      if (wrapsUp) {
        time.after((cap - WRAP_UP_LEAD_SECS) * 1000, () => {
          if (!this.ending) this.say(Phrases.wrapUp, { notice: true });
        });
      }
      // The farewell starts early enough to end by the cap: the call lasts max_call_duration_secs, not the
      // cap plus a goodbye. A farewell still playing (slow synthesis) is cut short of the cap rather than
      // billed past it.
      const lead = Math.min(CAP_FAREWELL_LEAD_MS, cap * 500);
      time.after(cap * 1000 - lead, () => {
        void this.endWith('max_call_duration_reached', Phrases.maxDurationFarewell, {
          interrupt: true,
          limitMs: Math.max(lead - CAP_HANGUP_MARGIN_MS, lead / 2),
        });
      });
    }

    if (this.agent.intro_message) {
      this.say(substituteVariables(this.agent.intro_message, this.variables));
    } else {
      this.armIdle();
    }
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
    this.stopIdle();
    this.idleStrikes = 0;
    // A new utterance: an early reply to the words before it answers the wrong turn.
    this.discardEarlyReply();
    if (this.ending || this.turn?.committed) return;
    if (this.turnTaking.ignore_backchannels && this.speech!.audible) {
      // Over the agent: its words decide (callerWordsSoFar, callerSaid); until then the agent talks on, and
      // goes quiet only if the sound lasts (armHold).
      this.overlap?.cancelHold?.();
      this.overlap = { utterance, fromAudioMs: utterance.audioMs, cancelHold: null };
      if (!this.speech!.holding) this.armHold(BARGE_IN_HOLD_MS);
      return;
    }
    this.bargeIn();
  }

  /** Barge-in: whatever the agent was preparing or saying gives way to the caller. */
  private bargeIn(): void {
    this.endOverlap();
    this.turn?.controller.abort();
    this.turn = null;
    if (this.speech!.interrupt()) this.options.turnTaking?.observe('barge_in');
  }

  private endOverlap(): void {
    this.overlap?.cancelHold?.();
    this.overlap = null;
  }

  /**
   * Holds the agent once the overlap's caller audio reaches BARGE_IN_HOLD_MS. Counted in the caller's audio, not
   * wall time, so the words that audio carries (decided on as it arrives) are always known by then.
   */
  private armHold(afterMs: number): void {
    const overlap = this.overlap!;
    overlap.cancelHold = this.time!.after(afterMs, () => {
      overlap.cancelHold = null;
      if (this.overlap !== overlap) return;
      const { utterance } = overlap;
      // A caller already silent again (a pause), or whose words are an acknowledgement, is waited for without
      // stopping the agent.
      if (utterance.ended || utterance.paused || bargeInOf(utterance.partial) === 'backchannel') return;
      const heardMs = utterance.audioMs - overlap.fromAudioMs;
      if (heardMs < BARGE_IN_HOLD_MS) return this.armHold(BARGE_IN_HOLD_MS - heardMs);
      if (this.speech!.hold()) this.options.turnTaking?.observe('held');
    });
  }

  /** The words so far of an utterance: they may settle an overlap, or start an early reply at a pause. */
  private callerWordsSoFar(utterance: Utterance): void {
    if (utterance.partial)
      this.notify({ type: 'transcript', role: 'user', text: utterance.partial, final: false });
    if (this.overlap?.utterance === utterance) {
      // More than an acknowledgement, or a word that asks for the floor: the agent stops at once.
      if (bargeInOf(utterance.partial) === 'interrupt' && !this.ending && !this.turn?.committed)
        this.bargeIn();
      return;
    }
    if (utterance.paused) this.startEarlyReply(utterance);
  }

  /**
   * At a pause whose words look like a finished turn, the model starts on them; nothing of it is heard before the
   * endpoint, and a final transcript with other words discards it (callerSaid).
   */
  private startEarlyReply(utterance: Utterance): void {
    if (this.early || this.overlap || this.turn || this.openTools || this.ending || this.unheardNotice)
      return;
    // Async answers waiting for the next round belong in it: the turn's own first round takes them.
    if (this.lateResults.length > 0) return;
    if (!utterance.paused || completenessOf(utterance.partial) !== 'complete') return;
    const controller = new AbortController();
    const sentences: string[] = [];
    const early: EarlyReply = {
      utteranceId: utterance.id,
      text: utterance.partial,
      controller,
      sentences,
      sink: null,
      firstDeltaAtMs: null,
      adoptedBy: null,
      round: runModelRound({
        models: this.models,
        request: {
          messages: [
            ...this.messages,
            ...this.saidOutsideTurns,
            { role: 'user', content: utterance.partial },
          ],
          tools: this.tools.specs,
        },
        signal: controller.signal,
        timeoutMs: this.providerTimeoutMs,
        onSentence: (sentence) => (early.sink ? early.sink(sentence) : sentences.push(sentence)),
        onFirstDelta: () => {
          early.firstDeltaAtMs ??= this.time!.now();
          if (early.adoptedBy) early.adoptedBy.llmFirstTokenAtMs ??= early.firstDeltaAtMs;
        },
        onFallback: (failure, next) => this.options.onProviderFallback?.(failure, next),
      }),
    };
    // Settled by the turn that adopts it; a discarded one's failure is nobody's.
    early.round.catch(() => undefined);
    this.early = early;
  }

  private discardEarlyReply(): void {
    if (!this.early) return;
    this.early.controller.abort();
    this.early = null;
    this.options.turnTaking?.observe('early_reply_discarded');
  }

  /** The early reply, when it was started on exactly the words the caller's turn ended with. */
  private adoptEarlyReply(utterance: Utterance, text: string): EarlyReply | null {
    const early = this.early;
    if (!early) return null;
    // An async answer that came after it started is not in its request, and must not wait for a later round.
    if (early.utteranceId !== utterance.id || !sameWords(early.text, text) || this.lateResults.length > 0) {
      this.discardEarlyReply();
      return null;
    }
    this.early = null;
    this.options.turnTaking?.observe('early_reply_used');
    return early;
  }

  private callerSaid(utterance: Utterance, text: string, finalAtMs: number, stt: SttProviderName): void {
    if (this.phase !== 'live') return;
    if (this.overlap?.utterance === utterance) {
      if (bargeInOf(text) !== 'interrupt') {
        // An acknowledgement, or sound with no words: the agent talks on (from the sentence it cut, if it had
        // gone quiet). The acknowledgement is kept in the transcript but is no turn of the model's.
        this.endOverlap();
        if (this.speech!.holding) {
          this.speech!.release();
          if (!text) this.options.turnTaking?.observe('false_barge_in_recovered');
        }
        if (text) {
          this.options.turnTaking?.observe('backchannel');
          this.report({ role: 'user', content: text, atMs: Math.round(utterance.startedAtMs) });
        }
        this.armIdle();
        return;
      }
      if (!this.ending && !this.turn?.committed) this.bargeIn();
    }
    if (!text) {
      this.discardEarlyReply();
      this.armIdle();
      return;
    }
    this.report({ role: 'user', content: text, atMs: Math.round(utterance.startedAtMs) });
    if (this.ending || this.turn?.committed) {
      this.discardEarlyReply();
      return;
    }
    const early = this.adoptEarlyReply(utterance, text);
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
    this.stopIdle();
    this.idleStrikes = 0;
    this.discardEarlyReply();
    if (this.ending || this.turn?.committed) return;
    this.bargeIn();
  }

  /** A keypad entry is a caller turn of its own, in the documented form ("[keypad] 4711 #"). */
  private callerKeyedIn(entry: KeypadEntry): void {
    if (this.phase !== 'live') return;
    this.report({ role: 'user', content: entry.text, atMs: Math.round(entry.startedAtMs) });
    if (this.ending || this.turn?.committed) return;
    const now = this.time!.now();
    this.takeTurn(entry.text, null, {
      speechEndMs: now,
      endpointAtMs: now,
      sttFinalAtMs: now,
      stt: this.stt.current.name,
    });
  }

  /**
   * A line the caller typed (a browser session's user_text) is their final utterance: it takes the floor as
   * speech does (barge-in, an early reply to older words dropped, the idle timer reset), is in the transcript as
   * the user's, and is the caller's turn. A line typed while the agent ends the call or commits a transfer is kept
   * in the transcript only, as spoken words are then.
   */
  private callerTyped(text: string): void {
    if (this.phase !== 'live') return;
    this.stopIdle();
    this.idleStrikes = 0;
    this.discardEarlyReply();
    const now = this.time!.now();
    this.report({ role: 'user', content: text, atMs: Math.round(now) }, { typed: true });
    if (this.ending || this.turn?.committed) {
      this.armIdle();
      return;
    }
    this.bargeIn();
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
    this.closeOpenTools();
    this.messages.push(...this.saidOutsideTurns.splice(0), { role: 'user', content: text });
    if (this.unheardNotice) {
      // Said before the reply, and in the history before it, so the model knows the caller has now heard it.
      this.say(this.unheardNotice, { notice: true });
      this.unheardNotice = null;
      this.messages.push(...this.saidOutsideTurns.splice(0));
    }
    this.turn?.controller.abort();
    const turn: Turn = {
      controller: early?.controller ?? new AbortController(),
      ...at,
      early,
      llm: null,
      llmFirstTokenAtMs: null,
      failure: null,
      committed: false,
      customCalls: 0,
    };
    this.startTurn(turn);
  }

  /** Runs the agent's turn; a failure of its providers ends the call. */
  private startTurn(turn: Turn): void {
    this.turn = turn;
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
        this.armIdle();
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
    const lines: TurnLines = {
      get current() {
        return current;
      },
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
    };

    try {
      for (let round = 0; round < MAX_MODEL_ROUNDS; round++) {
        // Async functions' answers that came since the last round join here, never between a tool call and
        // its result.
        if (!(round === 0 && turn.early)) this.messages.push(...this.lateResults.splice(0));
        const { text, calls, model } =
          round === 0 && turn.early
            ? await this.adoptedRound(turn, turn.early, say)
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
        const next = await this.runTools(turn, lines, calls, queued);
        if (next === 'stop') return;
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

  /** The early reply's round as the turn's first: what it wrote so far is said now, the rest as it comes. */
  private async adoptedRound(
    turn: Turn,
    early: EarlyReply,
    say: (sentence: string) => void,
  ): Promise<ModelRoundResult> {
    early.sink = say;
    early.adoptedBy = turn;
    turn.llmFirstTokenAtMs ??= early.firstDeltaAtMs;
    for (const sentence of early.sentences.splice(0)) say(sentence);
    return early.round;
  }

  /** Runs the model's tool calls in order; 'stop' when the turn is over (call ended, transferred, or not). */
  private async runTools(
    turn: Turn,
    lines: TurnLines,
    calls: ToolCall[],
    queued: Promise<void>[],
  ): Promise<'continue' | 'stop'> {
    const results = new Map<string, string>();
    const open: OpenToolCalls = { calls, results, ran: new Set(), closedWithout: null };
    this.openTools = open;
    let outcome: 'continue' | 'stop' = 'continue';
    const followUps: string[] = [];
    /** The tool running now: told done with its outcome, or cancelled should the turn be given up under it. */
    let running: { name: string; startedAt: number } | null = null;
    try {
      for (const call of calls) {
        if (outcome === 'stop') {
          results.set(call.id, 'Not run: the call moved on.');
          continue;
        }
        const tool = this.tools.get(call.name);
        if (!tool) {
          results.set(call.id, `Unknown tool ${call.name}.`);
          continue;
        }
        const refused = this.overLimit(turn, tool);
        if (refused) {
          results.set(call.id, refused);
          this.recordToolCall({
            name: tool.name,
            kind: tool.kind,
            functionId: tool.functionId,
            arguments: call.arguments,
            outcome: 'limit_reached',
            latencyMs: 0,
            logId: null,
          });
          continue;
        }
        this.notify({ type: 'tool', name: call.name, status: 'running', ...shownArguments(call.arguments) });
        running = { name: call.name, startedAt: performance.now() };
        open.ran.add(call.id);
        // What the tool recorded of itself while it ran (the built-in tools record as they go).
        let recorded: ToolInvocation | null = null;
        const run = await tool.run(
          call,
          this.toolTurn(turn, tool, lines, queued, followUps, (entry) => (recorded ??= entry)),
        );
        results.set(call.id, run.result);
        if (run.invocation) this.recordToolCall(run.invocation);
        const invocation: ToolInvocation | null = run.invocation ?? recorded;
        this.notify({
          type: 'tool',
          name: call.name,
          status: 'done',
          // An async function answers later: its outcome is recorded then.
          outcome: invocation?.outcome ?? 'pending',
          latency_ms: invocation?.latencyMs ?? Math.round(performance.now() - running.startedAt),
        });
        running = null;
        if (run.followUp) followUps.push(run.followUp);
        // A tool that answered after the caller spoke over the turn: the rest of the turn is not run.
        if (run.stop || (turn.controller.signal.aborted && !turn.committed)) outcome = 'stop';
      }
    } finally {
      if (running !== null) {
        this.notify({
          type: 'tool',
          name: running.name,
          status: 'done',
          outcome: 'cancelled',
          latency_ms: Math.round(performance.now() - running.startedAt),
        });
      }
      if (this.openTools === open) this.openTools = null;
      if (open.closedWithout === null) {
        // Every tool call gets its result, so the next model request is well formed.
        for (const call of calls) {
          this.messages.push({
            role: 'tool',
            tool_call_id: call.id,
            content: results.get(call.id) ?? 'Not run.',
          });
        }
      } else {
        // The caller spoke first and the history went on without these answers: they join it now.
        for (const call of open.closedWithout) {
          const result = results.get(call.id);
          if (result !== undefined && open.ran.has(call.id)) this.addLateResult(call, result);
        }
      }
    }
    // Said only now: the tool results must follow the model's tool calls directly in the history.
    for (const text of followUps) this.say(text);
    return outcome;
  }

  /** Why a partner function may not run now (the per-turn or per-call bound), or null when it may. */
  private overLimit(turn: Turn, tool: ConversationTool): string | null {
    if (tool.kind !== 'custom') return null;
    if (this.customCalls >= CUSTOM_FUNCTION_CALLS_PER_CALL)
      return `Not run: the limit of ${CUSTOM_FUNCTION_CALLS_PER_CALL} function calls on this call was reached. Carry on without it.`;
    if (turn.customCalls >= CUSTOM_FUNCTION_CALLS_PER_TURN)
      return `Not run: the limit of ${CUSTOM_FUNCTION_CALLS_PER_TURN} function calls in one turn was reached. Answer the caller now.`;
    turn.customCalls++;
    this.customCalls++;
    return null;
  }

  /** What a tool may do in this turn. */
  private toolTurn(
    turn: Turn,
    tool: ConversationTool,
    lines: TurnLines,
    queued: Promise<void>[],
    followUps: string[],
    onRecord: (entry: ToolInvocation) => void,
  ): ToolTurn {
    // Read when the tool asks: the variables change as functions answer, the turn may be given up meanwhile.
    const variables = () => this.variables;
    const abandoned = () => turn.controller.signal.aborted || this.ending;
    return {
      agent: this.agent,
      get variables() {
        return variables();
      },
      reporter: this.options.reporter,
      callSignal: this.callController.signal,
      get abandoned() {
        return abandoned();
      },
      say: (sentence) => {
        if (!turn.controller.signal.aborted) lines.sayApart(sentence);
      },
      sayAside: (text) => {
        if (!this.ending) this.say(text);
      },
      prepare: (text) => {
        if (!turn.controller.signal.aborted) this.speech?.prepare(text);
      },
      nowMs: () => Math.round(this.time?.now() ?? 0),
      after: (ms, fn) => this.time!.after(ms, fn),
      withAck: (work) => this.withToolAck(tool.name, turn, work, lines.say),
      endCall: () => this.endCallFromTurn(turn, lines, queued),
      optOut: (decided) => this.optOutFromTurn(turn, lines, queued, decided),
      transfer: async (to, reason, decided) => {
        const ok = await this.transferFromTurn(turn, lines, queued, to, reason, decided);
        if (!ok && !this.ending) followUps.push(Phrases.transferFailed);
        return ok;
      },
      pressKeys: (call) => this.sendDigits(turn, call),
      setVariables: (values) => this.setVariables(values),
      deliverLater: (call, result, options) => this.deliverLate(call, result, options.speak),
      record: (entry) => {
        onRecord(entry);
        this.recordToolCall(entry);
      },
      onError: (error, context) => this.options.onError?.(error, context),
    };
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

  /** An async function's answer: into the history at the next round; spoken about when the agent is free. */
  private deliverLate(call: ToolCall, result: string, speak: boolean): void {
    if (this.ending || this.phase !== 'live') return;
    this.addLateResult(call, result);
    if (speak) this.lateRoundWanted = true;
    this.speakLateResults();
  }

  /** A tool's answer that came after its turn: its own call and result, so any model reads it as the tool's. */
  private addLateResult(call: ToolCall, result: string): void {
    const answer: ToolCall = { ...call, id: `${call.id}-answer` };
    this.lateResults.push(
      { role: 'assistant', content: null, tool_calls: [answer] },
      { role: 'tool', tool_call_id: answer.id, content: result },
    );
  }

  /**
   * The caller speaks while a turn's tools still run: their calls get results now (the ones known, else that
   * the answer is still to come), so the caller's words follow a well-formed history. The answers still to come
   * join it as late results.
   */
  private closeOpenTools(): void {
    const open = this.openTools;
    if (!open) return;
    this.openTools = null;
    open.closedWithout = open.calls.filter((call) => !open.results.has(call.id));
    for (const call of open.calls) {
      this.messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: open.results.get(call.id) ?? 'Interrupted: the caller spoke before it finished.',
      });
    }
  }

  /** Speaks about async answers that came, once the agent is idle and the caller is not speaking. */
  private speakLateResults(): void {
    if (!this.lateRoundWanted || this.lateResults.length === 0) return;
    if (this.ending || this.phase !== 'live' || this.turn || this.early || this.overlap) return;
    // Tools of a turn the caller talked over still running: their answers come first.
    if (this.openTools || this.speech!.busy || this.input!.speaking) return;
    this.lateRoundWanted = false;
    this.stopIdle();
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

  /** Reports one tool invocation to the calls service, in order with the rest (bounded per call). */
  private recordToolCall(entry: ToolInvocation): void {
    if (this.terminated || this.toolCallsReported >= TOOL_CALLS_PER_CALL_MAX) return;
    this.toolCallsReported++;
    const record: VoiceToolCallRecord = { ...entry, atMs: entry.atMs ?? Math.round(this.time?.now() ?? 0) };
    this.reports = this.reports
      .then(() => this.options.reporter.toolCall(record))
      .catch((error: unknown) => this.options.onError?.(error, 'tool call'));
  }

  private async endCallFromTurn(turn: Turn, lines: TurnLines, queued: Promise<void>[]): Promise<void> {
    if (!this.beginEnding('agent_ended_call')) return;
    turn.committed = true;
    const message = this.agent.end_call_message
      ? substituteVariables(this.agent.end_call_message, this.variables)
      : Phrases.endCallDefault;
    lines.say(message);
    lines.current.end();
    await Promise.all(queued);
    await lines.current.done;
    await this.finish('agent_ended_call', true);
  }

  /** opt_out: the number joins the do-not-call list, then a short goodbye and the hang-up. */
  private async optOutFromTurn(
    turn: Turn,
    lines: TurnLines,
    queued: Promise<void>[],
    decided: (listed: boolean) => void,
  ): Promise<void> {
    if (!this.beginEnding(OPTED_OUT)) return;
    turn.committed = true;
    let listed = true;
    try {
      await this.options.reporter.optOut();
    } catch (error) {
      listed = false;
      this.options.onError?.(error, 'opt_out');
    }
    decided(listed);
    lines.say(listed ? Phrases.optOutFarewell : Phrases.optOutFailed);
    lines.current.end();
    await Promise.all(queued);
    await lines.current.done;
    await this.finish(OPTED_OUT, true);
  }

  private async transferFromTurn(
    turn: Turn,
    lines: TurnLines,
    queued: Promise<void>[],
    to: string,
    reason: string,
    decided: (ok: boolean) => void,
  ): Promise<boolean> {
    turn.committed = true;
    const message = this.agent.transfer_message
      ? substituteVariables(this.agent.transfer_message, this.variables)
      : Phrases.transferDefault;
    lines.say(message);
    lines.current.end();
    await Promise.all(queued);
    await lines.current.done;
    if (turn.failure) throw turn.failure;
    if (this.ending) return false;
    this.input!.listening = false;
    const transfer = this.withToolAck(
      TRANSFER_CALL_TOOL,
      turn,
      this.options.reporter.transfer(to, reason),
      (phrase) => this.say(phrase, { remember: false }),
    );
    this.pendingTransfer = transfer.catch(() => false);
    let ok = false;
    try {
      ok = await transfer;
    } catch (error) {
      this.options.onError?.(error, 'transfer');
    } finally {
      this.pendingTransfer = null;
    }
    decided(ok);
    if (ok) {
      if (this.beginEnding('transferred')) await this.finish('transferred', false);
      return true;
    }
    if (this.ending) return false;
    turn.committed = false;
    this.input!.listening = true;
    return false;
  }

  /** send_dtmf: in-band tones play as a line of their own after what the turn said so far. */
  private async sendDigits(turn: Turn, call: ToolCall): Promise<string> {
    try {
      return await sendDtmf(call, {
        route: this.options.dtmfRoute ?? 'in_band',
        play: async (label, audio) => {
          const line = this.speech!.line({ signal: turn.controller.signal });
          const queued = line.play(label, audio);
          line.end();
          await queued;
          await line.done;
          if (turn.controller.signal.aborted) throw new Aborted();
          return !line.interrupted;
        },
        viaCarrier: async (digits) => {
          const sent = await this.options.reporter.sendDigits(digits);
          // In the transcript as in-band keys are (their line's label), so both routes read the same.
          if (sent)
            this.report({
              role: 'bot',
              content: dtmfInputText(digits, null),
              atMs: Math.round(this.time!.now()),
            });
          return sent;
        },
      });
    } catch (error) {
      if (error instanceof Aborted) throw error;
      this.options.onError?.(error, 'send_dtmf');
      return 'The keys could not be sent right now.';
    }
  }

  /** Awaits a tool, speaking the agent's acknowledgement if it runs past tool_ack_config.delay_ms. */
  private async withToolAck<T>(
    tool: string,
    turn: Turn,
    work: Promise<T>,
    speak: (phrase: string) => void,
  ): Promise<T> {
    const config = this.agent.tool_ack_config;
    const phrase = toolAckPhrase(config, tool);
    const cancel =
      phrase && config
        ? this.time!.after(config.delay_ms, () => {
            if (!turn.controller.signal.aborted && !this.ending) speak(phrase);
          })
        : null;
    try {
      const result = await work;
      if (turn.controller.signal.aborted && !turn.committed) throw new Aborted();
      return result;
    } finally {
      cancel?.();
    }
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

  // ---- lines, idle -------------------------------------------------------------------------------------

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
    this.armIdle();
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
      .then(() => this.options.reporter.transcript({ ...line, callSeconds }))
      .catch((error: unknown) => this.options.onError?.(error, 'transcript'));
  }

  /** Starts the silence timer when the agent has finished and the caller is quiet (user_idle_enabled only). */
  private armIdle(): void {
    // Wherever the agent may fall idle, an async function's answer that came is spoken about first.
    this.speakLateResults();
    if (!this.agent.user_idle_enabled || this.ending || this.phase !== 'live') return;
    if (this.cancelIdle || this.turn || this.speech!.busy || this.input!.speaking) return;
    this.waitForSilence(IDLE_REPROMPT_MS, this.input!.heardMs);
  }

  /** Waits `mediaMs`, then strikes once the caller's audio since `heardFromMs` covers the idle silence. */
  private waitForSilence(mediaMs: number, heardFromMs: number): void {
    this.cancelIdle = this.time!.after(mediaMs, () => {
      this.cancelIdle = null;
      if (this.ending || this.turn || this.speech!.busy || this.input!.speaking) return;
      const unheardMs = IDLE_REPROMPT_MS - (this.input!.heardMs - heardFromMs);
      if (unheardMs > IDLE_STREAM_SLACK_MS) return this.waitForSilence(unheardMs, heardFromMs);
      this.idleStrikes++;
      if (this.idleStrikes === 1) this.say(Phrases.idleReprompt);
      else void this.endWith('user_idle_timeout', Phrases.idleGoodbye, { interrupt: false });
    });
  }

  private stopIdle(): void {
    this.cancelIdle?.();
    this.cancelIdle = null;
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
    this.stopIdle();
    if (this.input) this.input.listening = false;
    this.keypad?.stop();
    return true;
  }

  /**
   * A machine answered: leave the message (if any) and hang up; no conversation. `interrupt` cuts what is
   * playing (a machine answer that came after the stream started), as barge-in does.
   */
  private leaveVoicemail(options: { interrupt: boolean }): void {
    const message = this.agent.voicemail_message
      ? substituteVariables(this.agent.voicemail_message, this.variables)
      : null;
    void this.endWith('voicemail_detected', message, { interrupt: options.interrupt });
  }

  /** The platform ends the call: stop the turn, say the farewell (bounded), hang up. */
  private async endWith(
    reason: string,
    farewell: string | null,
    options: { interrupt: boolean; limitMs?: number; timeoutMs?: number },
  ): Promise<void> {
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
    if (this.pendingTransfer && (await this.pendingTransfer)) reason = 'transferred';
    await this.finish(reason, hangup && reason !== 'transferred');
  }

  /** Hangs up (when asked), stops every timer and provider, waits for the transcript, settles `done`. */
  private async finish(reason: string | null, hangup: boolean): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    // A call that has ended already has nothing to hang up.
    if (hangup && reason && !this.terminated) {
      await this.options.reporter
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
    this.stopIdle();
    this.keypad?.stop();
    this.callController.abort();
    this.speech?.stop();
    this.time?.stop();
    return this.input?.close() ?? Promise.resolve();
  }
}

/**
 * A tool call's arguments as a client is shown them: as given, or (past TOOL_CALL_MAX_ARGUMENT_BYTES, as the
 * session's record cuts them) none, marked cut.
 */
function shownArguments(args: Record<string, unknown>): {
  arguments: Record<string, unknown>;
  arguments_truncated?: true;
} {
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(args ?? {}));
  } catch {
    bytes = Infinity;
  }
  return bytes > TOOL_CALL_MAX_ARGUMENT_BYTES
    ? { arguments: {}, arguments_truncated: true }
    : { arguments: args ?? {} };
}

/** Starts one call's conversation; feed it the carrier's events, await `done`. */
export function createConversation(options: ConversationOptions): LiveConversation {
  return new Conversation(options);
}
