// A call on a speech-to-speech model (OpenAI Realtime, Gemini Live): the second way the conversation port is
// driven. The caller's audio goes to the model's session, which hears it, decides when the caller's turn is over
// and answers with its own voice; its audio plays through the agent's voice as synthesised speech does (paced
// frames, marks, the recording, the ambience). Everything else is the conversation's own: the transcript (the
// caller's lines from the session's transcription, the agent's from the model's transcript, cut to what was
// heard), the tools (the same runner, call control and partner functions), handoffs, the call's lifecycle, the
// idle timer, the call cap, voicemail, keys and typed lines, usage and the recording.
//
// What differs from the chain, on purpose:
// - Barge-in follows the model's own voice activity detection (OpenAI's speech_started, Gemini's interrupted) and
//   the line's (the caller input's detector, while the agent is heard): the reply stops, the session cancels it and
//   (OpenAI) cuts its audio to what was heard. The chain's turn-taking settings (backchannels, holds, early
//   replies, endpointing) are the chain's: the model decides the caller's turn.
// - The platform's own lines (intro, reprompts, the wrap-up, farewells, tool acknowledgements, messages of
//   end_call and transfers, the apology) are spoken by the agent's voice, as on the chain, and put into the
//   session's conversation so the model knows the caller heard them.
// - A handoff gives the call to the next agent with its prompt and tools; an agent on a speech-to-speech model
//   takes the call on its own model (a new session), any other keeps the session's model with the next agent's
//   prompt and tools.

import {
  TurnTakingSnapshotDefaults,
  type AgentSnapshot,
  type TransferOutcome,
  type TurnProviders,
  type TurnTakingSnapshot,
} from '@vap/messages';
import {
  openRealtimeSession,
  type ChatMessage,
  type RealtimeContextLine,
  type RealtimeEvent,
  type RealtimeSession,
  type ToolCall,
} from '@vap/llm';
import { mulawDecode, TELEPHONY_SAMPLE_RATE, type AmbienceLoop, type MediaStreamEvent } from '@vap/media';
import type { SttProvider, TtsProvider } from '@vap/speech';
import { AgentLines } from '../agent-lines';
import type { SpokenLine } from '../agent-speech';
import { latencyOf, newTurn, type Turn } from '../agent-turn';
import { backgroundAudioFor } from '../background-audio';
import { CallControls, leaveVoicemail } from '../call-control';
import { writesFreely } from '../call-control/warm-transfer';
import { CallLifecycle } from '../call-lifecycle';
import { openCallMedia, type CallMedia } from '../call-media';
import { CallTranscript } from '../call-transcript';
import { CallVariables } from '../call-variables';
import {
  voicemailDetected,
  type ConversationOptions,
  type ConversationResult,
  type LiveConversation,
} from '../conversation-contract';
import { ConversationEventBus, type ConversationPort } from '../conversation-port';
import type { KeypadEntry } from '../dtmf/caller-keypad';
import { saidSoFar } from '../handoffs/handoff-context';
import { nextAgentModels } from '../handoffs/next-agent-models';
import { IdleController } from '../idle/idle-controller';
import { watchCallCap } from '../limits/call-cap';
import { runModelRound, type AgentModel } from '../model-round';
import { ModelUsageTally } from '../model-usage';
import { bindPort } from '../port-binding';
import { substituteVariables } from '../prompt';
import { ProviderChain } from '../provider-chain';
import { ProviderFailure } from '../provider-failure';
import { ToolRegistry } from '../tools';
import { LateResults } from '../tools/late-results';
import { ToolRunner, type ToolRound } from '../tools/tool-runner';
import { ModelReply } from './model-reply';
import {
  isRealtimeModel,
  realtimeLabel,
  realtimeSpeechProviders,
  type RealtimeModel,
} from './realtime-model';
import { SessionHearing } from './session-hearing';

/** Default wall-clock limit for each provider answer (the chain's DEFAULT_PROVIDER_TIMEOUT_MS). */
const DEFAULT_TIMEOUT_MS = 10_000;

/** Lines of what was said that a new session is given (a handoff, a fallback): the latest ones. */
export const CONTEXT_LINES = 40;

export interface RealtimeConversationOptions extends Omit<
  ConversationOptions,
  'llm' | 'stt' | 'onCallerLanguage' | 'maxUtteranceMs' | 'modelsFor'
> {
  /** The agent's speech-to-speech models in fallback order (its own, then its fallbacks, all of one kind). */
  models: readonly RealtimeModel[];
  /**
   * The models of the agent a handoff gives the call to (its plan: speech-to-speech models, or a chain's);
   * rejects when they cannot be had. Absent: a handoff keeps the session's model.
   */
  modelsFor?: (agent: AgentSnapshot) => Promise<readonly AgentModel[]>;
  /**
   * Text models (the deployment's default chain) for what a session cannot write apart from the conversation: a
   * handoff's summary, a warm transfer's briefing. Absent: those fall back to their plain forms.
   */
  textModels?: readonly AgentModel[];
  /**
   * Wall ms the session may take to open and, while a reply is due, between its messages (LLM_TIMEOUT_MS, the
   * model's deadline); default providerTimeoutMs.
   */
  sessionTimeoutMs?: number;
  /** Opens a session (specs give their own); default openRealtimeSession. */
  openSession?: typeof openRealtimeSession;
}

/** A turn of the agent's on the session: its replies, the tool rounds between them. */
interface RealtimeTurn {
  turn: Turn;
  /** Tool rounds running. */
  tools: number;
  /** Tool results went back and the model's next reply is due. */
  awaiting: boolean;
  /** Replies whose line has not closed yet. */
  lines: Set<ModelReply>;
  /** Its first line is timed (latency parts are the turn's, on its first line). */
  timed: boolean;
}

class RealtimeConversation implements LiveConversation {
  readonly done: Promise<ConversationResult>;
  private agent: AgentSnapshot;
  private readonly variables: CallVariables;
  private readonly timeoutMs: number;
  private readonly tools: ToolRegistry;
  private readonly callController = new AbortController();
  /** What was said and done (the system prompt first): tool results land here, a handoff's context is read here. */
  private readonly messages: ChatMessage[] = [];
  private readonly tts: ProviderChain<TtsProvider>;
  private readonly hearing: ProviderChain<SttProvider>;
  private models: ProviderChain<RealtimeModel>;
  /** The model the session runs (a fallback or a handoff changes it). */
  private model: RealtimeModel;
  private session: RealtimeSession | null = null;
  /** A session being opened (the call's first, a fallback's, a handoff's). */
  private opening: Promise<boolean> | null = null;
  /** Sessions asked for so far: only the latest one asked for is used. */
  private attempts = 0;
  /** A reply was asked for while no session was open: the next one is asked for it. */
  private respondOnOpen = false;
  /** The session failed before the stream started: the call ends once it does. */
  private failedEarly: ProviderFailure | null = null;
  /** The instructions the session has (a partner function's variables change them). */
  private instructions = '';
  private media: CallMedia | null = null;
  private readonly ambience: AmbienceLoop | null;
  private current: RealtimeTurn | null = null;
  /** The reply under way on the session. */
  private reply: ModelReply | null = null;
  /** Lines of the model's replies (the rest are the platform's, spoken by the agent's voice). */
  private readonly modelLines = new WeakSet<SpokenLine>();
  private readonly turnTaking: TurnTakingSnapshot;
  private readonly life: CallLifecycle;
  private answeredByValue: string | null;
  private readonly events = new ConversationEventBus();
  private readonly transcript: CallTranscript;
  private readonly lines: AgentLines;
  private readonly port: ConversationPort;
  private readonly late: LateResults;
  private readonly controls: CallControls;
  private readonly runner: ToolRunner;
  private readonly usage = new ModelUsageTally();
  private readonly textModels: ProviderChain<AgentModel> | null;
  /** Media ms the caller's current speech started, it stopped, and its words came (a turn's latency parts). */
  private callerSpeechAtMs: number | null = null;
  private speechStoppedAtMs: number | null = null;
  /** Media ms the line's own detector last heard the caller's speech end. */
  private localSpeechEndMs: number | null = null;
  private transcribedAtMs: number | null = null;
  /** A reply was asked for with no caller turn (an answer came late): the next reply is the agent's own. */
  private unprompted = false;
  /** The caller's audio as PCM (one buffer, frame after frame). */
  private pcm = new Int16Array(0);

  constructor(private readonly options: RealtimeConversationOptions) {
    this.agent = options.context.agent;
    this.variables = new CallVariables(this.agent, options.context.variables, this.messages);
    this.timeoutMs = options.providerTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.tools = new ToolRegistry(this.agent);
    this.models = new ProviderChain(options.models);
    this.model = this.models.current;
    this.tts = new ProviderChain(options.tts);
    this.hearing = new ProviderChain([new SessionHearing()]);
    this.textModels = options.textModels?.length ? new ProviderChain(options.textModels) : null;
    this.ambience = backgroundAudioFor(this.agent.backgroundAudioId, this.agent.backgroundAudioVolume);
    this.answeredByValue = options.context.answeredBy;
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
      current: () => ({ stt: this.speechNames().stt, llm: this.model, tts: this.tts.current.name }),
      latency: options.latency,
      failed: (failure) => void this.life.providerFailed(failure),
    });
    const port = (this.port = this.portOf());
    this.late = new LateResults(port, {
      floorTaken: () => this.runner.open || this.reply !== null,
      speakUp: () => this.speakUp(),
    });
    new IdleController(port);
    watchCallCap(port);
    this.controls = new CallControls(
      port,
      options.platform,
      options.platform,
      options.dtmfRoute ?? 'in_band',
      () => !!this.textModels && writesFreely(this.textModels.current.llm),
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
    // Nothing the platform pays for outlives the call.
    this.events.on('closed', () => this.closeSession());
  }

  /** Opens the first session on the agent's models in order; false when none opened. */
  async openFirst(): Promise<boolean> {
    for (;;) {
      if (await this.openSession(this.model, this.contextLines())) return true;
      if (!this.models.fallBackFrom(this.model)) return false;
      this.model = this.models.current;
    }
  }

  private portOf(): ConversationPort {
    return bindPort(
      {
        agent: () => this.agent,
        media: () => this.media,
        variables: () => this.variables.values,
        live: () => this.life.phase === 'live',
        ending: () => this.life.ending,
        turn: () => this.current?.turn ?? null,
      },
      {
        turnTaking: this.turnTaking,
        events: this.events,
        history: this.messages,
        callSignal: this.callController.signal,
        complete: (messages, signal) => this.complete(messages, signal),
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

  // ---- the stream -------------------------------------------------------------------------------------------

  onEvent(event: MediaStreamEvent): void {
    if (this.life.phase === 'done') return;
    switch (event.type) {
      case 'started':
        if (this.life.phase === 'waiting') this.start();
        return;
      case 'audio':
        return this.callerAudio(event.payload);
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
    if (this.life.phase === 'live') leaveVoicemail(this.port, { interrupt: true });
    return true;
  }

  private start(): void {
    this.life.phase = 'live';
    const conversation: ConversationOptions = {
      ...this.options,
      stt: [this.hearing.current],
      llm: [this.model],
    };
    const media = (this.media = openCallMedia({
      conversation,
      agent: this.agent,
      turnTaking: this.turnTaking,
      stt: this.hearing,
      tts: this.tts,
      ambience: this.ambience,
      providerTimeoutMs: this.timeoutMs,
      lines: {
        onLineDone: (line) => {
          if (!this.modelLines.has(line)) this.platformLineDone(line);
          this.events.emit('agentLineDone', { line });
        },
        onLineStarted: () => this.transcript.notify({ type: 'agent.speaking', speaking: true }),
      },
      caller: {
        // The line's own detector: speech over the agent cuts it at once, whatever the model heard yet.
        onSpeechStart: () => this.callerStarted(),
        onUtterance: (utterance) => (this.localSpeechEndMs = utterance.endedAtMs),
        onFailure: (failure) => void this.life.providerFailed(failure),
      },
      keys: { onKey: () => this.callerPressedKey(), onEntry: (entry) => this.callerKeyedIn(entry) },
    }));
    media.speech.start();
    void media.input.open();
    if (this.failedEarly) {
      void this.life.providerFailed(this.failedEarly);
      return;
    }
    if (voicemailDetected(this.agent, this.answeredByValue)) {
      leaveVoicemail(this.port, { interrupt: false });
      return;
    }
    this.events.emit('live', { intro: !!this.agent.introMessage });
    if (this.agent.introMessage)
      this.lines.say(substituteVariables(this.agent.introMessage, this.variables.values));
  }

  // ---- the caller ------------------------------------------------------------------------------------------

  /** Every frame: recorded and watched by the caller input, and heard by the session while the caller is heard. */
  private callerAudio(payload: Buffer): void {
    const media = this.media;
    if (!media) return;
    media.input.audio(payload);
    if (!this.session || !media.input.listening || this.life.ending) return;
    if (this.pcm.length !== payload.length) this.pcm = new Int16Array(payload.length);
    this.session.sendAudio(mulawDecode(payload, this.pcm));
  }

  /** The caller started speaking (the model's detector or the line's): the floor is theirs. */
  private callerStarted(): void {
    if (this.life.phase !== 'live' || this.life.ending) return;
    this.callerSpeechAtMs ??= this.now();
    this.localSpeechEndMs = null;
    this.events.emit('callerStarted', { by: 'speech' });
    this.bargeIn();
  }

  /**
   * The caller took the floor: what the agent says stops (unless it is committed to a transfer or the end), the
   * session cancels its reply and cuts the audio the caller did not hear.
   */
  private bargeIn(): void {
    const current = this.current;
    if (current?.turn.committed) return;
    const media = this.media;
    if (!media) return;
    const now = media.time.now();
    const replies = current ? [...current.lines] : [];
    if (this.reply && !replies.includes(this.reply)) replies.push(this.reply);
    let heardMs: number | null = null;
    for (const reply of replies) {
      if (reply.cut) continue;
      reply.cut = true;
      reply.heardMs = reply.playedMs(now);
      heardMs = reply.heardMs;
    }
    const audible = media.speech.interrupt();
    if (audible) this.options.turnTaking?.observe('barge_in');
    // The model's reply under way (or its audio still playing) is cut where the caller stopped hearing it.
    if (heardMs !== null || this.reply) this.session?.interrupt(heardMs ?? 0);
    if (current) this.endTurn(current, true);
  }

  /** The model's transcription of the caller's utterance: their line, and the conversation's history. */
  private callerSaid(text: string): void {
    if (this.life.phase !== 'live') return;
    const now = this.now();
    const atMs = Math.round(this.callerSpeechAtMs ?? now);
    this.callerSpeechAtMs = null;
    this.transcribedAtMs = now;
    this.lines.joinHistory();
    this.messages.push({ role: 'user', content: text });
    this.transcript.line({ role: 'user', content: text, atMs });
    this.events.emit('callerWords', { text });
  }

  private callerPressedKey(): void {
    this.events.emit('callerStarted', { by: 'key' });
    this.bargeIn();
  }

  /** A keypad entry is a caller turn of its own: the model gets it as the caller's words and answers. */
  private callerKeyedIn(entry: KeypadEntry): void {
    if (this.life.phase !== 'live') return;
    this.transcript.line({ role: 'user', content: entry.text, atMs: Math.round(entry.startedAtMs) });
    this.wordsForTheModel(entry.text);
  }

  /** A line the caller typed (a browser session's user_text) takes the floor and is their turn. */
  private callerTyped(text: string): void {
    if (this.life.phase !== 'live') return;
    this.events.emit('callerStarted', { by: 'text' });
    this.transcript.line({ role: 'user', content: text, atMs: Math.round(this.now()) }, { typed: true });
    if (!this.life.ending && !this.current?.turn.committed) this.bargeIn();
    this.wordsForTheModel(text);
    this.events.emit('callerWords', { text });
  }

  /** Words that did not reach the session as audio (keys, a typed line): given as the caller's, answered. */
  private wordsForTheModel(text: string): void {
    this.lines.joinHistory();
    this.messages.push({ role: 'user', content: text });
    if (this.life.ending || this.current?.turn.committed) return;
    const now = this.now();
    this.speechStoppedAtMs = now;
    this.transcribedAtMs = now;
    this.session?.addContext([{ role: 'user', text }]);
    this.askReply();
  }

  // ---- the session -----------------------------------------------------------------------------------------

  /** Opens a session on `model` with the call's instructions and tools; false when it could not open. */
  private openSession(model: RealtimeModel, context: RealtimeContextLine[]): Promise<boolean> {
    this.closeSession();
    const attempt = ++this.attempts;
    const opening = this.tryOpen(model, context, attempt);
    this.opening = opening;
    return opening;
  }

  private async tryOpen(
    model: RealtimeModel,
    context: RealtimeContextLine[],
    attempt: number,
  ): Promise<boolean> {
    const open = this.options.openSession ?? openRealtimeSession;
    this.instructions = this.systemPrompt();
    let session: RealtimeSession | null = null;
    try {
      session = await open(
        model.provider,
        {
          ...model.session,
          instructions: this.instructions,
          tools: this.tools.specs,
          sampleRate: TELEPHONY_SAMPLE_RATE,
          timeoutMs: this.options.sessionTimeoutMs ?? this.timeoutMs,
          context,
        },
        (event) => {
          if (session && this.session === session) this.sessionEvent(event);
        },
      );
    } catch (error) {
      this.options.onError?.(error, `${realtimeLabel(model)} session`);
      return false;
    }
    // Another session was asked for meanwhile, or the call is over: this one is not used.
    if (this.attempts !== attempt || this.life.phase === 'done') {
      session.close();
      return false;
    }
    this.session = session;
    this.model = model;
    this.opening = null;
    if (this.respondOnOpen) {
      this.respondOnOpen = false;
      this.askReply();
    }
    return true;
  }

  private closeSession(): void {
    this.opening = null;
    this.attempts++;
    const session = this.session;
    this.session = null;
    this.reply = null;
    session?.close();
  }

  private sessionEvent(event: RealtimeEvent): void {
    if (this.life.phase === 'done') return;
    switch (event.type) {
      case 'caller.speech_started':
        return this.callerStarted();
      case 'caller.speech_stopped':
        this.speechStoppedAtMs = this.now();
        return;
      case 'caller.transcript':
        return this.callerSaid(event.text);
      case 'response.started':
        return this.replyStarted(event.responseId);
      case 'response.audio':
        return this.replyAudio(event.responseId, event.pcm);
      case 'response.transcript':
        if (this.reply?.id === event.responseId) this.reply.transcript += event.delta;
        return;
      case 'response.done':
        return this.replyDone(event);
      case 'failed':
        return void this.sessionFailed(event.error);
    }
  }

  /** The session failed: a fallback model takes over while the caller heard nothing of the reply, else the call ends. */
  private async sessionFailed(error: Error, failed: RealtimeModel = this.model): Promise<void> {
    const failure = new ProviderFailure('llm', error);
    const reply = this.reply;
    const heard = !!reply?.line && reply.line.firstFrameAtMs !== null;
    this.closeSession();
    if (this.life.phase !== 'done' && !this.life.ending && !heard && this.models.fallBackFrom(failed)) {
      const next = this.models.current;
      this.options.onProviderFallback?.(failure, `${next.provider}:${next.model}`);
      // A reply was due (the caller had spoken, tool results went back): the next model gives it.
      const due = !!reply || !!this.current?.awaiting || this.transcribedAtMs !== null;
      if (reply) reply.cut = true;
      if (due) this.respondOnOpen = true;
      if (await this.openSession(next, this.contextLines())) return;
      return this.sessionFailed(new Error(`${realtimeLabel(next)} could not be opened`), next);
    }
    if (this.life.phase === 'waiting') {
      this.failedEarly = failure;
      return;
    }
    if (reply) {
      reply.cut = true;
      reply.finish();
    }
    await this.life.providerFailed(failure);
  }

  /** Asks the session for a reply (the one being opened gives it once it is open). */
  private askReply(): void {
    if (this.session) this.session.respond();
    else if (this.opening) this.respondOnOpen = true;
  }

  // ---- the model's replies -----------------------------------------------------------------------------------

  private replyStarted(id: string): void {
    if (this.life.phase !== 'live' || this.life.ending) {
      // The call is on its way out: the model says nothing more.
      this.session?.interrupt(0);
      return;
    }
    const current = this.current ?? this.startTurn();
    current.awaiting = false;
    current.turn.llmFirstTokenAtMs ??= this.now();
    current.turn.llm = this.model;
    this.reply = new ModelReply(id, current.turn, this.model, TELEPHONY_SAMPLE_RATE);
  }

  /** A turn of the agent's begins with its first reply: timed from the caller's speech, or unprompted. */
  private startTurn(): RealtimeTurn {
    const now = this.now();
    const unprompted = this.unprompted && this.transcribedAtMs === null;
    // The model's own detector says when the caller stopped; without it (Gemini) the line's detector does.
    const speechEndMs = this.speechStoppedAtMs ?? this.localSpeechEndMs ?? this.transcribedAtMs ?? now;
    const turn = newTurn(
      {
        speechEndMs,
        endpointAtMs: speechEndMs,
        sttFinalAtMs: this.transcribedAtMs ?? now,
        stt: this.speechNames().stt,
      },
      { unprompted },
    );
    turn.llm = this.model;
    this.unprompted = false;
    this.speechStoppedAtMs = null;
    this.localSpeechEndMs = null;
    this.transcribedAtMs = null;
    this.lines.joinHistory();
    const current: RealtimeTurn = { turn, tools: 0, awaiting: false, lines: new Set(), timed: false };
    this.current = current;
    this.events.emit('turnStarted', { unprompted });
    return current;
  }

  private replyAudio(id: string, pcm: Int16Array): void {
    const reply = this.reply;
    const current = this.current;
    if (!reply || reply.id !== id || reply.cut || !current || !this.media) return;
    const turn = reply.turn;
    reply.play(() => {
      const timed = !current.timed && !turn.unprompted;
      current.timed = true;
      const line = this.media!.speech.line({
        signal: turn.controller.signal,
        onFirstFrame: (atMs) => {
          if (timed) reply.latency = latencyOf(turn, line, atMs);
        },
      });
      line.ttsFirstByteAtMs = this.now();
      this.modelLines.add(line);
      current.lines.add(reply);
      void line.done.then(() => this.replyLineDone(current, reply));
      return line;
    }, pcm);
  }

  private replyDone(event: Extract<RealtimeEvent, { type: 'response.done' }>): void {
    const reply = this.reply;
    if (!reply || reply.id !== event.responseId) return;
    this.reply = null;
    if (event.transcript) reply.transcript = event.transcript;
    this.usage.add(this.model, event.usage);
    // The line carries the tokens of its reply (and of replies before it that said nothing, a tool call's); a line
    // already written (cut before this came) leaves them to the model's next line.
    if (reply.line && !reply.closed) reply.usage = this.usage.take(this.model) ?? null;
    reply.finish();
    const current = this.current;
    if (!current || current.turn !== reply.turn) return;
    if (reply.line) {
      // The model remembers what it said; corrected to what was heard when the line closes.
      reply.history = { role: 'assistant', content: reply.transcript || null };
      this.messages.push(reply.history);
    }
    if (event.status === 'completed' && !reply.cut && event.toolCalls.length)
      void this.runTools(current, reply, event.toolCalls);
    else this.settleTurn(current);
  }

  /** A reply's line closed (played out, or cut): its transcript line, with what the caller heard of it. */
  private replyLineDone(current: RealtimeTurn, reply: ModelReply): void {
    current.lines.delete(reply);
    const line = reply.line!;
    if (line.firstFrameAtMs !== null) this.transcript.notify({ type: 'agent.speaking', speaking: false });
    const interrupted = reply.cut || line.interrupted;
    const text = reply.heardText(reply.heardMs ?? reply.playedMs(this.now()));
    if (reply.history) reply.history.content = text || null;
    reply.closed = true;
    // Nothing of it was heard: no line carries its tokens, the model's next one does.
    if (!text && reply.usage) this.usage.giveBack(reply.model, reply.usage);
    if (text) {
      const names = realtimeSpeechProviders(reply.model.provider);
      this.transcript.line({
        role: 'bot',
        content: text,
        atMs: Math.round(line.firstFrameAtMs ?? this.now()),
        ...(reply.latency ? { latency: reply.latency } : {}),
        providers: {
          stt: names.stt,
          llm: reply.model.provider,
          llm_model: reply.model.model,
          tts: names.tts,
        },
        ...(reply.usage ? { usage: reply.usage } : {}),
        ...(interrupted ? { interrupted: true } : {}),
      });
      if (reply.latency) this.options.latency?.observe(reply.latency);
    }
    this.settleTurn(current);
  }

  /** Runs a reply's tool calls as the chain does, then gives the model their results. */
  private async runTools(current: RealtimeTurn, reply: ModelReply, calls: ToolCall[]): Promise<void> {
    current.tools++;
    const round = this.lines.reply(current.turn);
    // What the turn says apart (a function's message, the end-call message) follows the model's reply: waiting
    // for what was said means waiting for the reply's audio too.
    const toolRound: ToolRound = {
      ...round,
      turn: round.turn,
      finishSaying: async () => {
        await reply.line?.done;
        await round.finishSaying();
      },
    };
    let outcome: 'continue' | 'stop' = 'stop';
    try {
      outcome = await this.runner.run(toolRound, calls);
    } catch (error) {
      this.options.onError?.(error, 'tools');
    } finally {
      round.end();
      current.tools--;
    }
    const results = calls.map((call) => ({
      callId: call.id,
      name: call.name,
      output: toolResult(this.messages, call.id) ?? 'Not run.',
    }));
    const respond =
      outcome === 'continue' &&
      !this.life.ending &&
      !current.turn.controller.signal.aborted &&
      this.current === current;
    // A partner function may have set variables the prompt reads.
    const instructions = this.systemPrompt();
    if (instructions !== this.instructions && this.session?.update(instructions, this.tools.specs))
      this.instructions = instructions;
    if (respond) current.awaiting = true;
    this.session?.sendToolResults(results, respond);
    this.settleTurn(current);
  }

  /** The turn ends once nothing of it is under way: no reply due or playing, no tools running. */
  private settleTurn(current: RealtimeTurn): void {
    if (this.current !== current) return;
    if (this.reply?.turn === current.turn || current.awaiting || current.tools > 0 || current.lines.size > 0)
      return;
    this.endTurn(current, false);
  }

  private endTurn(current: RealtimeTurn, abandoned: boolean): void {
    if (this.current !== current) return;
    this.current = null;
    if (abandoned) current.turn.controller.abort();
    this.events.emit('turnEnded', {});
  }

  /** Gives the agent's turn up (the call ends): its reply, lines and tools stop. */
  private dropTurn(): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    current.turn.controller.abort();
    this.events.emit('turnEnded', {});
  }

  /** A line of the platform's own: reported as on the chain, and the model is told the caller heard it. */
  private platformLineDone(line: SpokenLine): void {
    this.lines.done(line);
    if (line.text && !this.life.ending) this.session?.addContext([{ role: 'assistant', text: line.text }]);
  }

  // ---- what the port asks ------------------------------------------------------------------------------------

  /** The agent speaks about answers that came late: they go to the model, which replies. */
  private speakUp(): void {
    this.lines.joinHistory();
    const late = this.late.take();
    const names = new Map<string, string>();
    const notes: RealtimeContextLine[] = [];
    for (const message of late) {
      this.messages.push(message);
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? []) names.set(call.id, call.name);
      if (message.role === 'tool')
        notes.push({
          role: 'system',
          text: `The answer of ${names.get(message.tool_call_id) ?? 'a tool'} came: ${message.content}`,
        });
    }
    this.session?.addContext(notes);
    this.unprompted = true;
    this.askReply();
  }

  /** One answer of a text model (the deployment's), for a handoff's summary or a warm transfer's briefing. */
  private async complete(messages: ChatMessage[], signal: AbortSignal): Promise<string> {
    if (!this.textModels) throw new Error('no text model for this call');
    const round = await runModelRound({
      models: this.textModels,
      request: { messages, tools: [] },
      signal,
      timeoutMs: this.timeoutMs,
      onSentence: () => undefined,
      onFirstDelta: () => undefined,
    });
    this.usage.add(round.model, round.usage);
    return round.text;
  }

  /**
   * A handoff: the next agent's prompt, tools and variables, on its own speech-to-speech model (a new session), or
   * on the session's model when it thinks with another kind.
   */
  private useAgent(
    agent: AgentSnapshot,
    context: ChatMessage[],
    variables: Record<string, unknown>,
    models: readonly AgentModel[] | null,
  ): void {
    this.agent = agent;
    this.tools.useAgent(agent);
    this.messages.splice(1, this.messages.length - 1, ...context);
    this.variables.useAgent(agent, variables);
    const own = (models ?? []).filter(isRealtimeModel);
    if (own.length) {
      this.models = new ProviderChain(own);
      void this.reopen(this.models.current);
      return;
    }
    const instructions = this.systemPrompt();
    if (this.session?.update(instructions, this.tools.specs)) this.instructions = instructions;
    else void this.reopen(this.model);
  }

  /** A new session for the next agent, with what was said; a failure to open ends the call as a failed model's. */
  private async reopen(model: RealtimeModel): Promise<void> {
    if (await this.openSession(model, this.contextLines())) return;
    await this.sessionFailed(new Error(`${realtimeLabel(model)} could not be opened`), model);
  }

  // ---- helpers -----------------------------------------------------------------------------------------------

  private now(): number {
    return this.media?.time.now() ?? 0;
  }

  private systemPrompt(): string {
    const system = this.messages[0];
    const prompt = system?.role === 'system' ? system.content : '';
    // A handoff's summary sits after the prompt as a system message of its own: a session takes one instruction.
    const notes = this.messages
      .slice(1)
      .filter((m): m is { role: 'system'; content: string } => m.role === 'system')
      .map((m) => m.content);
    return [prompt, ...notes].join('\n\n');
  }

  /** What was said so far, for a new session (the latest CONTEXT_LINES lines). */
  private contextLines(): RealtimeContextLine[] {
    return saidSoFar(this.messages)
      .slice(-CONTEXT_LINES)
      .map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', text: String(m.content) }));
  }

  /** The names the transcript gives what heard and spoke the model's lines. */
  private speechNames(): Pick<TurnProviders, 'stt' | 'tts'> {
    return realtimeSpeechProviders(this.model.provider);
  }
}

/** The result the runner put in the history for a tool call. */
function toolResult(messages: readonly ChatMessage[], callId: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'tool' && message.tool_call_id === callId) return message.content;
  }
  return undefined;
}

/** Thrown when none of the agent's speech-to-speech models could open a session. */
export class RealtimeUnavailable extends Error {
  constructor(models: readonly RealtimeModel[]) {
    super(`no speech-to-speech session could be opened (${models.map(realtimeLabel).join(', ')})`);
    this.name = 'RealtimeUnavailable';
  }
}

/**
 * Starts a call's conversation on a speech-to-speech model: its session opens (the agent's model, else its
 * fallbacks in order) before the stream's events are taken. Rejects with RealtimeUnavailable when none opens.
 */
export async function createRealtimeConversation(
  options: RealtimeConversationOptions,
): Promise<LiveConversation> {
  if (!options.models.length) throw new RealtimeUnavailable([]);
  const conversation = new RealtimeConversation(options);
  if (!(await conversation.openFirst())) throw new RealtimeUnavailable(options.models);
  return conversation;
}
