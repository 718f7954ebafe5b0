// One call's conversation: caller audio -> VAD/endpointing -> STT -> the agent's model (streaming, with tools) ->
// TTS sentence by sentence -> paced audio to the carrier. This file keeps the turn loop (the caller's turns, the
// agent's replies and their tool rounds, the call's lines and its end); the policies acting on the call are units
// on the conversation's port (conversation-port.ts): turn-taking/ (barge-in, hold, backchannels, early replies),
// idle/, limits/, call-control/ (end, transfer, opt-out, keys, acknowledgements, voicemail) and tools/ (the tool
// runner, late answers). Pure TypeScript: everything it touches comes in through ConversationOptions.

import {
  TurnTakingSnapshotDefaults,
  type AgentSnapshot,
  type SttProviderName,
  type TransferOutcome,
  type TurnTakingSnapshot,
} from '@vap/messages';
import type { ChatMessage } from '@vap/llm';
import type { AmbienceLoop, MediaStreamEvent } from '@vap/media';
import type { SttProvider, TtsProvider } from '@vap/speech';
import { AgentLines, type AssistantMessage } from './agent-lines';
import { newTurn, type Turn } from './agent-turn';
import { backgroundAudioFor } from './background-audio';
import { CallControls, leaveVoicemail } from './call-control';
import { writesFreely } from './call-control/warm-transfer';
import { CallLifecycle } from './call-lifecycle';
import { openCallMedia, type CallMedia } from './call-media';
import { CallTranscript } from './call-transcript';
import { CallVariables } from './call-variables';
import type { Utterance } from './caller-input';
import {
  voicemailDetected,
  type ConversationOptions,
  type ConversationResult,
  type LiveConversation,
} from './conversation-contract';
import { ConversationEventBus, type ConversationPort } from './conversation-port';
import { bindPort } from './port-binding';
import type { KeypadEntry } from './dtmf/caller-keypad';
import { nextAgentModels } from './handoffs/next-agent-models';
import { IdleController } from './idle/idle-controller';
import { watchCallCap } from './limits/call-cap';
import { runModelRound, type AgentModel, type ModelRoundResult } from './model-round';
import { ModelUsageTally } from './model-usage';
import { substituteVariables } from './prompt';
import { ProviderChain } from './provider-chain';
import { Aborted, ProviderFailure } from './provider-failure';
import { ToolRegistry } from './tools';
import { LateResults } from './tools/late-results';
import { ToolRunner } from './tools/tool-runner';
import { adoptedRound, EarlyReplies, type EarlyReply } from './turn-taking/early-reply';
import { TurnPolicy } from './turn-taking/turn-policy';

/** Default wall-clock limit for each provider answer (see ConversationOptions.providerTimeoutMs). */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** Model rounds per caller turn (each tool result goes back to the model once). */
const MAX_MODEL_ROUNDS = 4;

class Conversation implements LiveConversation {
  readonly done: Promise<ConversationResult>;
  private agent: AgentSnapshot;
  private readonly variables: CallVariables;
  private readonly providerTimeoutMs: number;
  private readonly tools: ToolRegistry;
  /** Aborted when the call ends: partner functions still running are given up. */
  private readonly callController = new AbortController();
  /** The model's history, the system prompt first. */
  private readonly messages: ChatMessage[] = [];
  private readonly stt: ProviderChain<SttProvider>;
  private readonly tts: ProviderChain<TtsProvider>;
  /** The agent's models: the call's agent's, then (after a handoff) the next agent's own. */
  private models: ProviderChain<AgentModel>;
  /** What the models' rounds cost: on the lines they write, and the call's totals. */
  private readonly usage = new ModelUsageTally();
  /** The call's media, once the stream started. */
  private media: CallMedia | null = null;
  private readonly ambience: AmbienceLoop | null;
  private turn: Turn | null = null;
  private readonly turnTaking: TurnTakingSnapshot;
  private readonly life: CallLifecycle;
  /** What the carrier's machine detection said: at the start (the call's context), or later (answeredBy()). */
  private answeredByValue: string | null;
  private readonly events = new ConversationEventBus();
  private readonly transcript: CallTranscript;
  private readonly lines: AgentLines;
  private readonly port: ConversationPort;
  private readonly policy: TurnPolicy;
  private readonly early: EarlyReplies;
  private readonly late: LateResults;
  private readonly controls: CallControls;
  private readonly runner: ToolRunner;

  constructor(private readonly options: ConversationOptions) {
    this.agent = options.context.agent;
    this.variables = new CallVariables(this.agent, options.context.variables, this.messages);
    this.providerTimeoutMs = options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
    this.tools = new ToolRegistry(this.agent);
    this.stt = new ProviderChain(options.stt);
    this.tts = new ProviderChain(options.tts);
    this.models = new ProviderChain(options.llm);
    // Rendered before the stream starts (the first call of an asset synthesises its clip), so the media clock
    // and the frame clock start on time.
    this.ambience = backgroundAudioFor(this.agent.backgroundAudioId, this.agent.backgroundAudioVolume);
    this.answeredByValue = options.context.answeredBy;
    // Calls started before agents had the setting carry none.
    this.turnTaking = { ...TurnTakingSnapshotDefaults, ...(this.agent.turnTaking ?? {}) };

    this.life = new CallLifecycle({
      events: this.events,
      media: () => this.media,
      dropTurn: () => this.dropTurn(),
      pendingTransfer: () => this.controls.pendingTransfer,
      hangup: (reason) => options.platform.hangup(reason),
      reportsSent: () => this.transcript.sent,
      modelUsage: () => this.usage.entries(),
      callController: this.callController,
      onError: options.onError,
    });
    this.done = this.life.done;
    this.transcript = new CallTranscript({
      record: options.platform,
      transport: options.transport,
      nowMs: () => this.media?.time.now() ?? 0,
      terminated: () => this.life.terminated,
      settled: () => this.life.phase === 'done',
      onError: options.onError,
    });
    this.lines = new AgentLines({
      speech: () => this.media?.speech ?? null,
      history: this.messages,
      transcript: this.transcript,
      nowMs: () => this.media!.time.now(),
      ending: () => this.life.ending,
      current: () => ({
        stt: this.stt.current.name,
        llm: this.models.current,
        tts: this.tts.current.name,
      }),
      latency: options.latency,
      usage: (model) => this.usage.take(model),
      failed: (failure) => void this.life.providerFailed(failure),
    });
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
      blocked: () => this.policy.overlapping || !!this.turn || this.runner.open || this.lines.noticeUnheard,
      answersWaiting: () => this.late.pending,
      firstRound: (text, signal, onSentence, onFirstDelta) =>
        this.modelRound(
          [...this.messages, ...this.lines.said, { role: 'user', content: text }],
          signal,
          onSentence,
          onFirstDelta,
        ),
    });
    this.controls = new CallControls(
      port,
      options.platform,
      options.platform,
      options.dtmfRoute ?? 'in_band',
      () => writesFreely(this.models.current.llm),
    );
    this.runner = new ToolRunner(port, {
      tools: this.tools,
      history: this.messages,
      controls: this.controls,
      services: options.platform,
      lateResults: this.late,
      callSignal: this.callController.signal,
      setVariables: (values) => this.variables.set(values),
      record: (entry) => this.transcript.toolCall(entry),
      notify: (notice) => this.transcript.notify(notice),
    });
  }

  /** The conversation as its units see it. */
  private portOf(): ConversationPort {
    const silent = () => undefined;
    return bindPort(
      {
        agent: () => this.agent,
        media: () => this.media,
        variables: () => this.variables.values,
        live: () => this.life.phase === 'live',
        ending: () => this.life.ending,
        turn: () => this.turn,
      },
      {
        turnTaking: this.turnTaking,
        events: this.events,
        history: this.messages,
        callSignal: this.callController.signal,
        complete: (messages, signal) =>
          this.modelRound(messages, signal, silent, silent, []).then((r) => r.text),
        modelsOf: (agent) => nextAgentModels(agent, this.options.modelsFor, this.options.onError),
        useAgent: (agent, context, variables, models) => this.useAgent(agent, context, variables, models),
        speakUp: () => this.speakUp(),
        say: (text, options) => this.lines.say(text, options),
        endWith: (reason, farewell, options) => this.life.endWith(reason, farewell, options),
        beginEnding: (reason) => this.life.beginEnding(reason),
        finish: (reason, hangup) => this.life.finish(reason, hangup),
        report: (line) => this.transcript.line(line),
        observe: (event) => this.options.turnTaking?.observe(event),
        onError: (error, context) => this.options.onError?.(error, context),
      },
    );
  }

  onEvent(event: MediaStreamEvent): void {
    if (this.life.phase === 'done') return;
    switch (event.type) {
      case 'started':
        if (this.life.phase === 'waiting') this.start();
        return;
      case 'audio':
        this.media?.input.audio(event.payload);
        return;
      case 'played':
        this.media?.speech.onPlayed(event.mark);
        return;
      case 'stopped':
        void this.life.streamGone(undefined, event.reason);
        return;
      case 'dtmf':
        this.media?.keypad.press(event.digit);
        return;
      case 'text':
        this.callerTyped(event.text);
        return;
      case 'typing':
        if (this.life.phase === 'live') this.events.emit('callerTyping', {});
        return;
      case 'cleared':
        // Our side already dropped the audio on clear.
        return;
    }
  }

  onClosed(cutReason?: string): void {
    void this.life.streamGone(cutReason);
  }

  end(reason: string): boolean {
    return this.life.end(reason);
  }

  terminate(): boolean {
    return this.life.terminate();
  }

  transferOutcome(outcome: TransferOutcome): boolean {
    return this.controls.transferOutcome(outcome);
  }

  answeredBy(answeredBy: string): boolean {
    if (this.life.closing) return false;
    if (!voicemailDetected(this.agent, answeredBy)) return false;
    this.answeredByValue = answeredBy;
    // Before the stream started, start() finds the machine answer; once live, whatever plays gives way.
    if (this.life.phase === 'live') leaveVoicemail(this.port, { interrupt: true });
    return true;
  }

  // ---- start -------------------------------------------------------------------------------------------

  private start(): void {
    this.life.phase = 'live';
    const media = (this.media = openCallMedia({
      conversation: this.options,
      agent: this.agent,
      turnTaking: this.turnTaking,
      stt: this.stt,
      tts: this.tts,
      ambience: this.ambience,
      providerTimeoutMs: this.providerTimeoutMs,
      lines: {
        onLineDone: (line) => {
          this.lines.done(line);
          this.events.emit('agentLineDone', { line });
        },
        onLineStarted: () => this.transcript.notify({ type: 'agent.speaking', speaking: true }),
      },
      caller: {
        onSpeechStart: (utterance) => this.callerStartedSpeaking(utterance),
        onPartial: (utterance) => this.callerWordsSoFar(utterance),
        onPause: (utterance) => this.early.start(utterance),
        // Speech again before the endpoint: the early reply stays while the words stay the same (callerWordsSoFar
        // drops it when they change, the final transcript when they differ), so one turn is one model request.
        onResume: (utterance) => this.early.heard(utterance),
        onUtterance: (utterance, text, finalAtMs, stt, language) => {
          if (language && text) this.options.onCallerLanguage?.(language);
          this.callerSaid(utterance, text, finalAtMs, stt);
        },
        onFailure: (failure) => void this.life.providerFailed(failure),
      },
      keys: { onKey: () => this.callerPressedKey(), onEntry: (entry) => this.callerKeyedIn(entry) },
    }));
    media.speech.start();
    void media.input.open();

    if (voicemailDetected(this.agent, this.answeredByValue)) {
      leaveVoicemail(this.port, { interrupt: false });
      return;
    }
    // The call cap's timers are set, and without an intro the idle timer arms.
    this.events.emit('live', { intro: !!this.agent.introMessage });
    if (this.agent.introMessage)
      this.lines.say(substituteVariables(this.agent.introMessage, this.variables.values));
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
      this.transcript.notify({ type: 'transcript', role: 'user', text: utterance.partial, final: false });
    this.early.heard(utterance);
    if (this.policy.callerWords(utterance)) return;
    if (utterance.paused) this.early.start(utterance);
  }

  private callerSaid(utterance: Utterance, text: string, finalAtMs: number, stt: SttProviderName): void {
    if (this.life.phase !== 'live') return;
    this.takeWords(utterance, text, finalAtMs, stt);
    this.events.emit('callerWords', { text });
  }

  /** The utterance's final words: a backchannel kept in the transcript, or the caller's turn. */
  private takeWords(utterance: Utterance, text: string, finalAtMs: number, stt: SttProviderName): void {
    const said = () =>
      this.transcript.line({ role: 'user', content: text, atMs: Math.round(utterance.startedAtMs) });
    if (this.policy.callerFinished(utterance, text) === 'backchannel') {
      // Kept in the transcript, but no turn of the model's.
      if (text) said();
      return;
    }
    if (!text) return this.early.discard();
    said();
    if (this.life.ending || this.turn?.committed) return this.early.discard();
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
    if (this.life.phase !== 'live') return;
    this.transcript.line({ role: 'user', content: entry.text, atMs: Math.round(entry.startedAtMs) });
    if (this.life.ending || this.turn?.committed) return;
    this.takeTurnNow(entry.text);
  }

  /**
   * A line the caller typed (a browser session's user_text) is their final utterance: it takes the floor as
   * speech does (barge-in, an early reply to older words dropped, the idle timer reset), is in the transcript as
   * the user's, and is the caller's turn. A line typed while the agent ends the call or commits a transfer is kept
   * in the transcript only, as spoken words are then.
   */
  private callerTyped(text: string): void {
    if (this.life.phase !== 'live') return;
    this.events.emit('callerStarted', { by: 'text' });
    this.transcript.line(
      { role: 'user', content: text, atMs: Math.round(this.media!.time.now()) },
      { typed: true },
    );
    if (!this.life.ending && !this.turn?.committed) {
      this.policy.bargeIn();
      this.takeTurnNow(text);
    }
    this.events.emit('callerWords', { text });
  }

  /** A turn of words known at once (keys, a typed line): no speech, no endpointing. */
  private takeTurnNow(text: string): void {
    this.takeTurn(text, null, this.now());
  }

  /** A turn's moments when its words are known at once (no speech, no endpointing): now. */
  private now(): Pick<Turn, 'speechEndMs' | 'endpointAtMs' | 'sttFinalAtMs' | 'stt'> {
    const now = this.media!.time.now();
    return { speechEndMs: now, endpointAtMs: now, sttFinalAtMs: now, stt: this.stt.current.name };
  }

  /** The caller's turn (words or keys) goes to the model; the agent's reply is the turn. */
  private takeTurn(
    text: string,
    early: EarlyReply | null,
    at: Pick<Turn, 'speechEndMs' | 'endpointAtMs' | 'sttFinalAtMs' | 'stt'>,
  ): void {
    this.runner.closeOpen();
    this.lines.joinHistory();
    this.messages.push({ role: 'user', content: text });
    // Said before the reply, and in the history before it, so the model knows the caller has now heard it.
    this.lines.sayUnheardNotice();
    this.turn?.controller.abort();
    this.startTurn(newTurn(at, { early }));
  }

  /**
   * A handoff (call control): the next agent's prompt, tools, knowledge, variables and models (null: the call's
   * stay), its context after the prompt.
   */
  private useAgent(
    agent: AgentSnapshot,
    context: ChatMessage[],
    variables: Record<string, unknown>,
    models: readonly AgentModel[] | null,
  ): void {
    this.agent = agent;
    if (models) this.models = new ProviderChain(models);
    this.tools.useAgent(agent);
    this.messages.splice(1, this.messages.length - 1, ...context);
    this.variables.useAgent(agent, variables);
  }

  /** The agent speaks by itself about async answers that came (LateResults): a round with no caller turn. */
  private speakUp(): void {
    this.lines.joinHistory();
    this.startTurn(newTurn(this.now(), { unprompted: true }));
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
        void this.life.providerFailed(
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
    const reply = this.lines.reply(turn);
    try {
      for (let n = 0; n < MAX_MODEL_ROUNDS; n++) {
        // Async functions' answers that came since the last round join here, never between a tool call and
        // its result.
        if (!(n === 0 && turn.early)) this.messages.push(...this.late.take());
        const { text, calls, model } =
          n === 0 && turn.early
            ? await adoptedRound(turn, turn.early, reply.say)
            : await this.modelRound([...this.messages], turn.controller.signal, reply.say, () => {
                turn.llmFirstTokenAtMs ??= this.media!.time.now();
              });
        turn.llm = model;
        const entry: AssistantMessage = {
          role: 'assistant',
          content: text || null,
          ...(calls.length ? { tool_calls: calls } : {}),
        };
        this.messages.push(entry);
        if (text) reply.remember(entry);
        if (calls.length === 0) break;
        if ((await this.runner.run(reply, calls)) === 'stop') return;
      }
      await reply.settle();
    } catch (error) {
      throw turn.failure ?? error;
    } finally {
      reply.end();
    }
  }

  /** One model round on `messages` with the agent's tools; sentences go to `onSentence` as they are written. */
  private modelRound(
    messages: ChatMessage[],
    signal: AbortSignal,
    onSentence: (sentence: string) => void,
    onFirstDelta: () => void,
    tools = this.tools.specs,
  ): Promise<ModelRoundResult> {
    const round = runModelRound({
      models: this.models,
      // A partner's own model server is told which call it answers and the call's variables now.
      request: {
        messages,
        tools,
        call: { callId: this.options.context.callId, variables: this.variables.values },
      },
      signal,
      timeoutMs: this.providerTimeoutMs,
      onSentence,
      onFirstDelta,
      onFallback: (failure, next) =>
        this.options.onProviderFallback?.(failure, `${next.provider}:${next.model}`),
    });
    // Every round that completed was paid for, an early reply discarded after it finished included.
    return round.then((result) => {
      this.usage.add(result.model, result.usage);
      return result;
    });
  }
}

/** Starts one call's conversation; feed it the carrier's events, await `done`. */
export function createConversation(options: ConversationOptions): LiveConversation {
  return new Conversation(options);
}
