// Test kit for the conversation specs: a fake carrier (paced caller audio, marks echoed once played), scripted
// STT / TTS / chat model implementing the real interfaces, and a recording CallPlatform. Not used by the service.

import type {
  AgentSnapshot,
  CustomFunctionInvokeReply,
  CustomFunctionSnapshot,
  KnowledgeSearchReply,
  VoiceToolCallRecord,
  TransferOutcome,
  TurnLatency,
  VoiceCallContext,
  VoiceTranscriptRequest,
} from '@vap/messages';
import { AppError, ErrorCode, type VoiceHandoffReply, type VoiceSendSmsReply } from '@vap/messages';
import type { ChatDelta, ChatModel, ChatRequest } from '@vap/llm';
import type { BlobWriter } from '@vap/storage';
import {
  FRAME_MS,
  mulawEncode,
  sineWave,
  type ClockSource,
  type MediaStreamCommand,
  type MediaStreamNotice,
} from '@vap/media';
import type { ManualClock } from '@vap/runtime';
import type { SttProvider, SttSession } from '@vap/speech';
import type { TtsProvider, TtsRequest, TtsVoice } from '@vap/speech';
import type { CallPlatform } from '../call-platform';
import type { ConversationResult, LiveConversation, TurnTakingEvent } from '../conversation-contract';
import { createConversation } from '..';
import { Aborted } from '../provider-failure';

export const TEST_VOICE: TtsVoice = {
  providerVoiceId: 'test-voice',
  model: 'test-model',
  speed: 1,
  volume: 1,
  language: 'en-IN',
};

export function agentSettings(overrides: Partial<AgentSnapshot> = {}): AgentSnapshot {
  return {
    version: 3,
    prompt: 'You are a helpful assistant for {{company}}.',
    voiceId: 'voice-1',
    spokenLanguages: ['en'],
    introMessage: null,
    enableRecording: false,
    maxCallDurationSecs: null,
    endCallEnabled: true,
    endCallMessage: null,
    endCallInstructions: null,
    transferEnabled: false,
    transferNumber: null,
    transferMessage: null,
    transferInstructions: null,
    voicemailDetectionEnabled: true,
    voicemailMessage: null,
    userIdleEnabled: false,
    toolAckConfig: null,
    backgroundAudioId: null,
    backgroundAudioVolume: 0.3,
    kbThreshold: null,
    kbIncludeSummaries: false,
    kbResultFormat: null,
    hasKnowledge: false,
    extractionEnabled: false,
    ...overrides,
  };
}

/** Media ms of agent speech per word the fake TTS produces. */
export const TTS_MS_PER_WORD = 200;

/** A TTS that speaks each word as TTS_MS_PER_WORD of a tone, in 50 ms chunks. */
export class FakeTts implements TtsProvider {
  readonly requests: TtsRequest[] = [];
  /** Texts whose synthesis throws (a provider outage); `always` fails every request. */
  failOn: (text: string) => boolean = () => false;
  /** Wall ms before each 50 ms chunk (0: as fast as the event loop allows). */
  chunkDelayMs = 0;
  /** Wall ms a text's synthesis takes before its first chunk (a slow provider for that text). */
  firstChunkDelayMs: (text: string) => number = () => 0;
  /** Samples the pipeline has taken from the synthesis streams. */
  samplesTaken = 0;
  /** Texts whose synthesis was given up before its end (aborted, or its stream let go). */
  readonly abandoned: string[] = [];
  /** samplesTaken when each request's synthesis began, by request. */
  readonly startedAtSamples: number[] = [];
  /** How its delays pass (the harness's clock with HarnessOptions.clock). */
  wait = sleep;

  constructor(readonly name: TtsProvider['name'] = 'offline') {}

  async *synthesize(request: TtsRequest, signal?: AbortSignal): AsyncIterable<Int16Array> {
    this.requests.push(request);
    this.startedAtSamples.push(this.samplesTaken);
    if (this.failOn(request.text)) throw new Error('tts down');
    const words = request.text.split(/\s+/).filter(Boolean).length;
    const samples = (words * TTS_MS_PER_WORD * 8000) / 1000;
    const tone = sineWave(440, samples, 8000, 6000);
    let finished = false;
    try {
      const firstDelay = this.firstChunkDelayMs(request.text);
      if (firstDelay) await this.wait(firstDelay, signal);
      for (let offset = 0; offset < samples; offset += 400) {
        if (signal?.aborted) return;
        await (this.chunkDelayMs ? this.wait(this.chunkDelayMs, signal) : Promise.resolve());
        if (signal?.aborted) return;
        this.samplesTaken += Math.min(400, samples - offset);
        yield tone.subarray(offset, Math.min(samples, offset + 400));
      }
      finished = true;
    } finally {
      if (!finished) this.abandoned.push(request.text);
    }
  }
}

/** An STT that answers each utterance with the next scripted text, after checking audio arrived. */
export class FakeStt implements SttProvider {
  readonly framesPerUtterance: number[] = [];
  readonly languages: string[][] = [];
  closed = 0;
  fail = false;
  /**
   * Words so far, by utterance (in order): after `afterFrames` 20 ms frames of it, the session reports `text` as
   * a streaming provider's interim result would (null: none for that utterance).
   */
  readonly partials: ({ afterFrames: number; text: string } | null)[] = [];

  /** `texts` may be shared with a fallback STT: whichever answers an utterance takes the next one. */
  constructor(
    readonly texts: string[] = [],
    readonly name: SttProvider['name'] = 'offline',
  ) {}

  async open(options: { languages: string[] }): Promise<SttSession> {
    this.languages.push(options.languages);
    let frames = 0;
    // The utterance's scripted words so far, taken with its first audio (undefined: not yet).
    let partial: { afterFrames: number; text: string } | null | undefined;
    const session: SttSession = {
      // In 20 ms frames of audio (a replay after another provider failed comes in one piece).
      push: (pcm) => {
        frames += pcm.length / 160;
        if (partial === undefined) partial = this.partials.shift() ?? null;
        if (partial && frames >= partial.afterFrames) {
          session.onPartial?.(partial.text);
          partial = null;
        }
      },
      finish: async () => {
        this.framesPerUtterance.push(frames);
        frames = 0;
        partial = undefined;
        if (this.fail) throw new Error('stt down');
        return this.texts.shift() ?? '';
      },
      close: async () => void this.closed++,
    };
    return session;
  }
}

/** One scripted model turn: the deltas it streams, `delayMs` wall apart. */
export interface ModelTurn {
  deltas: ChatDelta[];
  delayMs?: number;
  fail?: boolean;
}

export class FakeModel implements ChatModel {
  readonly model = 'fake';
  readonly requests: ChatRequest[] = [];
  /** Wall ms at which each delta was yielded. */
  readonly yieldedAt: number[] = [];
  /** Streams abandoned because their signal aborted (barge-in, hang-up). */
  aborted = 0;
  /** How its delays pass (the harness's clock with HarnessOptions.clock). */
  wait = sleep;

  constructor(readonly turns: ModelTurn[] = []) {}

  async *stream(request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatDelta> {
    this.requests.push(structuredClone(request));
    const turn = this.turns.shift() ?? { deltas: [{ type: 'text', text: 'Okay.' }] };
    if (turn.fail) throw new Error('llm down');
    for (const delta of turn.deltas) {
      if (turn.delayMs) await this.wait(turn.delayMs, signal);
      if (signal?.aborted) {
        this.aborted++;
        throw new Error('aborted');
      }
      this.yieldedAt.push(performance.now());
      yield delta;
    }
  }
}

export class FakePlatform implements CallPlatform {
  readonly lines: Omit<VoiceTranscriptRequest, 'callId'>[] = [];
  readonly hangups: string[] = [];
  readonly transfers: { to: string; reason: string }[] = [];
  readonly searches: { query: string; limit: number }[] = [];
  readonly toolCalls: VoiceToolCallRecord[] = [];
  /** Partner function requests, in order, with the call's variables as they were sent. */
  readonly invocations: { functionId: string; arguments: unknown; variables: Record<string, unknown> }[] = [];
  /** The agents service's answers to the next function calls, in order (wall ms each takes); default success. */
  functionReplies: { reply: Partial<CustomFunctionInvokeReply>; delayMs?: number }[] = [];
  /** Set to make every function request fail, as an agents service that refuses or does not answer would. */
  functionError: Error | null = null;
  optOuts = 0;
  /** Keys sent through the carrier (send_dtmf on a carrier route). */
  readonly digitsSent: string[] = [];
  digitsResult = true;
  /** Set to make the opt-out fail, as a calls service that does not answer would. */
  optOutError: Error | null = null;
  transferResult = true;
  /** Wall ms a transfer / knowledge search takes. */
  toolDelayMs = 0;
  /** How its delays pass (the harness's clock with HarnessOptions.clock). */
  wait = sleep;
  knowledge: KnowledgeSearchReply = {
    agent_id: 'agent-1',
    query: '',
    threshold: 'medium',
    min_score: 0.45,
    results: [],
    context: '',
  };

  /** The agents the calls service hands the call to, by id (a handoff to any other is refused). */
  readonly agents = new Map<string, { name: string; agent: Partial<AgentSnapshot> }>();
  readonly handoffs: { agentId: string; reason: string }[] = [];
  /** The calls service answers every handoff that the call reached its bound (HANDOFF_LIMITS.perCall). */
  handoffBoundReached = false;

  async transcript(line: Omit<VoiceTranscriptRequest, 'callId'>): Promise<void> {
    this.lines.push(line);
  }
  async handOff(agentId: string, reason: string): Promise<VoiceHandoffReply> {
    this.handoffs.push({ agentId, reason });
    await this.wait(this.toolDelayMs);
    if (this.handoffBoundReached)
      throw new AppError(ErrorCode.LIMIT_REACHED, 'The call was handed off 10 times; its agent keeps it');
    const next = this.agents.get(agentId);
    if (!next) throw new AppError(ErrorCode.FORBIDDEN, "The call's agent does not hand off to that agent");
    return { agentId, agentName: next.name, agent: agentSettings(next.agent) };
  }
  async transfer(to: string, reason: string): Promise<boolean> {
    this.transfers.push({ to, reason });
    await this.wait(this.toolDelayMs);
    return this.transferResult;
  }
  /** Warm transfers asked (with their briefings); `warmResult` is what the calls service answers. */
  readonly warmTransfers: { to: string; reason: string; briefing: string }[] = [];
  warmResult = true;
  withdrawals = 0;
  async warmTransfer(to: string, reason: string, briefing: string): Promise<boolean> {
    this.warmTransfers.push({ to, reason, briefing });
    await this.wait(this.toolDelayMs);
    return this.warmResult;
  }
  async withdrawTransfer(): Promise<TransferOutcome | null> {
    this.withdrawals++;
    return 'failed';
  }
  async sendDigits(digits: string): Promise<boolean> {
    this.digitsSent.push(digits);
    return this.digitsResult;
  }
  async hangup(reason: string): Promise<void> {
    this.hangups.push(reason);
  }
  async optOut(): Promise<void> {
    this.optOuts++;
    if (this.optOutError) throw this.optOutError;
  }
  /** Messages the agent sent (send_sms), and what the calls service answers the next ones. */
  readonly smsSent: { to: string | null; body: string }[] = [];
  smsReply: VoiceSendSmsReply = {
    sent: true,
    messageId: 'msg_00000000-0000-4000-8000-000000000001',
    to: null,
    reason: null,
  };
  async sendSms(to: string | null, body: string): Promise<VoiceSendSmsReply> {
    this.smsSent.push({ to, body });
    return this.smsReply;
  }
  async searchKnowledge(query: string, limit: number): Promise<KnowledgeSearchReply> {
    this.searches.push({ query, limit });
    await this.wait(this.toolDelayMs);
    return { ...this.knowledge, query };
  }
  async toolCall(record: VoiceToolCallRecord): Promise<void> {
    this.toolCalls.push(record);
  }
  async invokeCustomFunction(
    spec: CustomFunctionSnapshot,
    args: Record<string, unknown>,
    variables: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CustomFunctionInvokeReply> {
    this.invocations.push({ functionId: spec.id, arguments: args, variables: { ...variables } });
    if (this.functionError) throw this.functionError;
    const answer = this.functionReplies.shift() ?? { reply: {} };
    await this.wait(answer.delayMs ?? 0, signal);
    if (signal.aborted) throw new Aborted();
    return {
      outcome: 'success',
      status: 200,
      latencyMs: answer.delayMs ?? 0,
      result: '{"ok":true}',
      error: null,
      variables: {},
      logId: `log-${this.invocations.length}`,
      ...answer.reply,
    };
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface SentCommand {
  command: MediaStreamCommand;
  /** Wall ms (performance.now) when it was sent. */
  at: number;
}

export interface HarnessOptions {
  agent?: Partial<AgentSnapshot>;
  answeredBy?: VoiceCallContext['answeredBy'];
  variables?: Record<string, unknown>;
  sttTexts?: string[];
  model?: ModelTurn[];
  /** A real model in place of the scripted one (the offline engine); `model` is then unused. */
  llm?: ChatModel;
  timeScale?: number;
  /** Echo marks as played (a carrier); false models a carrier that loses them. */
  echoMarks?: boolean;
  /**
   * Fallback providers behind the primaries, as STT_PROVIDER=deepgram,openai, TTS_PROVIDER=openai,offline and
   * LLM_FALLBACK_BASE_URL set them up: the primaries are then named deepgram and openai.
   */
  fallbacks?: { model?: ModelTurn[] };
  /** enable_recording: the writer the recording goes to. */
  openRecording?: () => BlobWriter;
  /** How send_dtmf's keys go out (the stream's carrier decides it in the service). */
  dtmfRoute?: 'carrier' | 'in_band';
  /**
   * Runs the call on this clock instead of real time: media time, the agent's pacing, the carrier's frames and
   * mark echoes, and the fakes' delays (their wall ms are this clock's ms). The harness moves it a frame at a
   * time, as fast as the call keeps up. Provider timeouts stay on the wall clock, so none can fall due.
   */
  clock?: ManualClock;
}

/** `clock` as the agent's pacing clock. */
function pacingOn(clock: ManualClock): ClockSource {
  return {
    now: () => clock.monotonicMs(),
    setTimer: (callback, delayMs) => clock.setTimer(delayMs, callback),
    clearTimer: (cancel) => (cancel as () => void)(),
  };
}

/** Resolves after `ms` on `clock`, or at once when the signal aborts. */
function sleepOn(clock: ManualClock): (ms: number, signal?: AbortSignal) => Promise<void> {
  return (ms, signal) =>
    new Promise((resolve) => {
      const done = () => {
        cancel();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const cancel = clock.setTimer(ms, done);
      signal?.addEventListener('abort', done, { once: true });
    });
}

const CALLER_SPEECH = mulawEncode(sineWave(300, 160, 8000, 8000));
const CALLER_SILENCE = Buffer.alloc(160, 0xff);

/**
 * A call in progress: the fake carrier sends caller audio continuously on the media clock (speech while
 * `say` has some queued, silence otherwise), and echoes each mark one frame after it arrives (the frames are
 * paced, so when a mark arrives everything before it has gone out).
 */
export class CallHarness {
  readonly tts: FakeTts;
  readonly stt: FakeStt;
  readonly model: FakeModel;
  /** The fallbacks, with `fallbacks`. */
  readonly ttsFallback: FakeTts | null = null;
  readonly sttFallback: FakeStt | null = null;
  readonly modelFallback: FakeModel | null = null;
  readonly fallbacks: { failure: string; next: string }[] = [];
  readonly reporter = new FakePlatform();
  readonly sent: SentCommand[] = [];
  /** What the conversation told the transport's client (MediaTransport.notify), in order. */
  readonly notices: MediaStreamNotice[] = [];
  readonly latencies: TurnLatency[] = [];
  readonly turnTakingEvents: TurnTakingEvent[] = [];
  readonly conversation: LiveConversation;
  readonly timeScale: number;
  /** What the caller does next, in 20 ms frames: speech, or a pause before more speech (silence after it all). */
  private readonly script: { speech: boolean; frames: number }[] = [];
  private framesSent = 0;
  /** Frames of media time the carrier's stream delivers nothing (a stall). */
  private framesStalled = 0;
  private startedAt = 0;
  private feeder: NodeJS.Timeout | null = null;
  /** Cancels of the pending mark echoes. */
  private readonly timers = new Set<() => void>();
  private stopped = false;
  /** With `clock`: the clock is no longer moved (the call is over, or the spec is done with it). */
  private disposed = false;
  /** HarnessOptions.clock. */
  readonly clock: ManualClock | null;
  result: ConversationResult | null = null;

  constructor(options: HarnessOptions = {}) {
    this.timeScale = options.timeScale ?? 20;
    this.clock = options.clock ?? null;
    const texts = options.sttTexts ?? [];
    const fallbacks = options.fallbacks;
    this.stt = new FakeStt(texts, fallbacks ? 'deepgram' : 'offline');
    this.tts = new FakeTts(fallbacks ? 'openai' : 'offline');
    this.model = new FakeModel(options.model ?? []);
    if (fallbacks) {
      this.sttFallback = new FakeStt(texts, 'openai');
      this.ttsFallback = new FakeTts('offline');
      this.modelFallback = new FakeModel(fallbacks.model ?? []);
    }
    if (this.clock) {
      const wait = sleepOn(this.clock);
      for (const fake of [this.tts, this.model, this.reporter, this.ttsFallback, this.modelFallback]) {
        if (fake) fake.wait = wait;
      }
    }
    const echoMarks = options.echoMarks ?? true;
    this.conversation = createConversation({
      context: {
        callId: 'call-1',
        partnerId: 'partner-1',
        agentId: 'agent-1',
        sessionId: 'session-1',
        direction: 'outbound',
        fromNumber: '+15550001111',
        toNumber: '+15550002222',
        provider: 'carrier_b',
        variables: options.variables ?? { company: 'Acme' },
        answeredBy: options.answeredBy ?? 'human',
        agent: agentSettings(options.agent),
      },
      voice: TEST_VOICE,
      stt: this.sttFallback ? [this.stt, this.sttFallback] : [this.stt],
      tts: this.ttsFallback ? [this.tts, this.ttsFallback] : [this.tts],
      llm: [
        { provider: 'platform', model: 'primary', paidBy: null, llm: options.llm ?? this.model },
        ...(this.modelFallback
          ? [{ provider: 'platform' as const, model: 'fallback', paidBy: null, llm: this.modelFallback }]
          : []),
      ],
      platform: this.reporter,
      transport: {
        send: (command) => {
          this.sent.push({ command, at: this.nowMs() });
          if (command.type === 'mark' && echoMarks) {
            this.later(FRAME_MS / this.timeScale, () =>
              this.conversation.onEvent({ type: 'played', mark: command.name }),
            );
          }
        },
        notify: (notice) => this.notices.push(notice),
      },
      timeScale: this.timeScale,
      ...(this.clock ? { clock: this.clock, pacingClock: pacingOn(this.clock) } : {}),
      latency: { observe: (latency) => this.latencies.push(latency) },
      turnTaking: { observe: (event) => this.turnTakingEvents.push(event) },
      providerTimeoutMs: 2000,
      onProviderFallback: (failure, next) => this.fallbacks.push({ failure: failure.message, next }),
      openRecording: options.openRecording,
      dtmfRoute: options.dtmfRoute,
    });
    void this.conversation.done.then((result) => {
      this.result = result;
      this.halt();
    });
  }

  /** The carrier opens the stream and starts sending caller audio. */
  start(): this {
    this.conversation.onEvent({ type: 'started', callId: 'CA1', streamId: 'MZ1', params: {} });
    this.startedAt = this.nowMs();
    if (this.clock) this.drive(this.clock);
    else this.feeder = setInterval(() => this.feed(), 1);
    return this;
  }

  /** The caller speaks for `ms` of media time (a tone), after what is already scripted (else with the next frame). */
  say(ms: number): void {
    this.queue(true, ms);
  }

  /**
   * The caller pauses for `ms` of media time after what is already scripted, then goes on with what is said next:
   * the pause is exact on the media clock, however late the test's own timers run on a loaded machine.
   */
  pause(ms: number): void {
    this.queue(false, ms);
  }

  private queue(speech: boolean, ms: number): void {
    const frames = Math.round(ms / FRAME_MS);
    const last = this.script.at(-1);
    if (last && last.speech === speech) last.frames += frames;
    else this.script.push({ speech, frames });
  }

  /** The carrier's stream delivers nothing for `ms` of media time (its frames are lost), then goes on. */
  stall(ms: number): void {
    this.framesStalled += Math.round(ms / FRAME_MS);
  }

  /** The caller presses keys, one event each, `gapMs` of media time apart. */
  async press(keys: string, gapMs = 100): Promise<void> {
    for (const key of keys) {
      this.conversation.onEvent({ type: 'dtmf', digit: key });
      await this.reporter.wait(gapMs / this.timeScale);
    }
  }

  /** The carrier ends the stream (caller hung up); a browser's `end` gives a reason. */
  hangUp(reason?: string): void {
    this.halt();
    this.conversation.onEvent({ type: 'stopped', ...(reason ? { reason } : {}) });
  }

  /** Media ms since the stream started. */
  get mediaNow(): number {
    return (this.nowMs() - this.startedAt) * this.timeScale;
  }

  commands(type: MediaStreamCommand['type']): SentCommand[] {
    return this.sent.filter((s) => s.command.type === type);
  }

  /** Waits (wall time) until `predicate` holds; fails the test after `timeoutMs`. */
  async until(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!predicate()) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      // With a clock, looked at after each frame it moves.
      await (this.clock ? new Promise((resolve) => setImmediate(resolve)) : sleep(2));
    }
  }

  async done(timeoutMs = 8000): Promise<ConversationResult> {
    await this.until(() => this.result !== null, 'the conversation to end', timeoutMs);
    return this.result!;
  }

  /** The spec's afterEach: a conversation still running is ended as if the caller hung up. */
  async close(): Promise<void> {
    try {
      if (!this.result) {
        this.hangUp();
        await this.done();
      }
    } finally {
      this.halt();
      this.disposed = true;
    }
  }

  /** Stops the feeder and pending echoes. */
  halt(): void {
    this.stopped = true;
    if (this.feeder) clearInterval(this.feeder);
    this.feeder = null;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
  }

  /** Wall ms, or the clock's. */
  private nowMs(): number {
    return this.clock ? this.clock.monotonicMs() : performance.now();
  }

  /**
   * Moves the clock a frame at a time, each step once what the last one started has run (a macrotask later),
   * feeding the caller's audio, until the call is over. After the caller hung up the clock still moves, so the
   * conversation's own ending runs.
   */
  private drive(clock: ManualClock): void {
    const step = () => {
      if (this.result || this.disposed) return;
      clock.advance(FRAME_MS / this.timeScale);
      this.feed();
      setImmediate(step);
    };
    setImmediate(step);
  }

  private feed(): void {
    const due = Math.floor(this.mediaNow / FRAME_MS);
    while (!this.stopped && this.framesSent < due) {
      this.framesSent++;
      if (this.framesStalled > 0) {
        this.framesStalled--;
        continue;
      }
      // A pause with nothing after it is the silence the caller makes anyway.
      while (this.script.length && !this.script[0].speech && this.script.length === 1) this.script.shift();
      const next = this.script[0];
      const speaking = next?.speech === true;
      if (next && --next.frames <= 0) this.script.shift();
      this.conversation.onEvent({ type: 'audio', payload: speaking ? CALLER_SPEECH : CALLER_SILENCE });
    }
  }

  private later(ms: number, callback: () => void): void {
    const run = () => {
      this.timers.delete(cancel);
      if (!this.stopped) callback();
    };
    let cancel: () => void;
    if (this.clock) cancel = this.clock.setTimer(ms, run);
    else {
      const timer = setTimeout(run, ms);
      cancel = () => clearTimeout(timer);
    }
    this.timers.add(cancel);
  }
}
