// The agent's voice on the call: text -> TTS (PCM16 8 kHz) -> 20 ms frames -> a paced FrameClock -> mu-law to the
// carrier, with the ambience loop mixed under every frame. Each sentence is followed by a mark; the carrier
// echoes it once the sentence has played, which is how the conversation knows what the caller actually heard
// (barge-in cuts the agent's transcript line to that).

import {
  FrameClock,
  Framer,
  mulawEncode,
  pcm16FromBuffer,
  pcm16ToBuffer,
  FRAME_MS,
  sharedPacingClock,
  type AmbienceLoop,
  type ClockSource,
  type PacingObserver,
} from '@vap/media';
import type { TtsProvider, TtsVoice } from '@vap/speech';
import type { CallRecorder } from './call-recorder';
import type { MediaTransport, PacingStats } from './conversation-contract';
import type { MediaTime } from './media-time';
import type { ProviderChain } from './provider-chain';
import { Aborted, ProviderFailure, withProviderTimeout } from './provider-failure';

/** PCM16 bytes in one 20 ms frame at 8 kHz (the clock queues PCM so ambience is mixed at send time). */
const PCM_FRAME_BYTES = 320;
const PCM_FRAME_SAMPLES = PCM_FRAME_BYTES / 2;

/**
 * A mark the carrier never echoes (lost message, a carrier that drops marks on some paths) counts as played this
 * long after it was sent, in media ms, so a line can never hold the conversation forever.
 */
export const MARK_GRACE_MS = 3000;

/**
 * Synthesised audio is taken from the provider only this far ahead of playback (frames queued on the clock). A
 * provider that answers faster than real time would otherwise have its whole answer resampled and framed in one
 * burst, and with many calls those bursts delay every call's next frame; read this way, the work follows
 * playback. 500 ms is far more than one event-loop turn, so the queue never runs dry while speech is coming.
 */
export const READ_AHEAD_FRAMES = 25;

/** Speaking rate used to estimate how much of a sentence still being synthesised the caller heard. */
const ESTIMATED_MS_PER_WORD = 350;

/**
 * The agent's speech frames kept after they went out, so a sentence cut by caller sound that held no words can be
 * played again from its start (false barge-in recovery): 10 s, one buffer per call, allocated on the first hold-able
 * frame. A longer sentence is replayed from as far back as the buffer reaches.
 */
export const REPLAY_FRAMES = 500;

export interface AgentSpeechOptions {
  /** The TTS providers in fallback order: one that fails has the sentence in flight said again by the next. */
  tts: ProviderChain<TtsProvider>;
  voice: TtsVoice;
  transport: MediaTransport;
  time: MediaTime;
  ambience: AmbienceLoop | null;
  recorder: CallRecorder | null;
  /** Wall ms a TTS request may take to deliver its next chunk. */
  providerTimeoutMs: number;
  /** Timers of the outbound pacing; default: the replica's shared pacing clock (one wake-up for all calls). */
  pacingClock?: ClockSource;
  pacingObserver?: PacingObserver;
  /** A line finished: fully played, or cut by barge-in / hang-up (then `interrupted`). */
  onLineDone(line: SpokenLine): void;
  /** A line's first frame went out (the agent is heard from now until onLineDone). */
  onLineStarted?(line: SpokenLine): void;
  /** `failure` handed the call over to the next TTS provider, `next`. */
  onFallback?(failure: ProviderFailure, next: TtsProvider['name']): void;
}

class Segment {
  /** The mark that follows its audio (renamed when the audio is played again). */
  mark: string;
  /** Speech frames of this sentence queued so far. */
  frames = 0;
  /** Sequence number after the last frame, once synthesis finished. */
  endSeq: number | null = null;
  played = false;
  /** Synthesis failed or was abandoned part-way: the rest of the sentence was never heard. */
  cut = false;
  cancelGrace: (() => void) | null = null;

  constructor(
    mark: string,
    readonly text: string,
    readonly line: SpokenLine,
    /** Sequence number of the first frame. */
    readonly startSeq: number,
  ) {
    this.mark = mark;
  }
}

export interface LineOptions {
  /** Aborting it stops the line's synthesis (the turn was abandoned). */
  signal?: AbortSignal;
  /** TTS timeout for this line, wall ms (short for the apology after a failure). */
  timeoutMs?: number;
  /** The line's first frame went out, at `atMs` media time. */
  onFirstFrame?: (atMs: number) => void;
}

/** One agent transcript line: the sentences of one reply, spoken in order. */
export class SpokenLine {
  readonly controller = new AbortController();
  readonly segments: Segment[] = [];
  pendingSynthesis = 0;
  ended = false;
  closed = false;
  interrupted = false;
  /** What the caller heard, set when the line closes. */
  text = '';
  firstFrameAtMs: number | null = null;
  ttsFirstByteAtMs: number | null = null;
  /** The TTS provider that synthesised the line's latest audio. */
  ttsProvider: TtsProvider['name'] | null = null;
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(
    private readonly speech: AgentSpeech,
    readonly options: LineOptions,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    const parent = options.signal;
    if (parent?.aborted) this.controller.abort();
    else parent?.addEventListener('abort', () => this.controller.abort(), { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Queues a sentence; synthesis starts once the previous sentences are synthesised. Resolves when its audio is
   * queued (or the line was abandoned); rejects with a ProviderFailure when TTS fails or times out.
   */
  say(text: string): Promise<void> {
    return this.speech.enqueue(this, text);
  }

  /**
   * Queues audio that is no speech (PCM16 8 kHz: touch tones), in order with the sentences; `label` stands for it
   * in the transcript. Played, marked and cut like a sentence.
   */
  play(label: string, audio: Int16Array): Promise<void> {
    return this.speech.enqueue(this, label, audio);
  }

  /** No more sentences: the line closes once everything queued has played. */
  end(): void {
    this.ended = true;
    this.speech.check(this);
  }

  /** @internal */
  close(text: string, interrupted: boolean): void {
    this.closed = true;
    this.text = text;
    this.interrupted = interrupted;
    this.resolveDone();
  }
}

/** A sentence waiting for its turn to be synthesised. */
interface QueuedSentence {
  line: SpokenLine;
  text: string;
  /** Audio to play instead of synthesising the text (SpokenLine.play). */
  audio?: Int16Array;
  /** Its provider request, once started ahead of its turn. */
  request: TtsRequestInFlight | null;
}

interface TtsRequestInFlight {
  /** Who synthesises it. */
  provider: TtsProvider;
  /** Null when the provider threw before answering (then `first` rejects with it). */
  iterator: AsyncIterator<Int16Array> | null;
  /** The first chunk, asked for when the request started. */
  first: Promise<IteratorResult<Int16Array>>;
  onAbort: () => void;
  /** Aborts the request and lets go of its stream. */
  release(): void;
}

/** A line's audio synthesised ahead of its moment (see AgentSpeech.prepare). */
interface PreparedAudio {
  provider: TtsProvider;
  controller: AbortController;
  /** The whole sentence, once synthesis finished. */
  chunks: Int16Array[] | null;
}

export class AgentSpeech {
  private readonly clock: FrameClock;
  private readonly pacingClock: ClockSource;
  private readonly framer = new Framer(PCM_FRAME_BYTES, 0);
  private readonly silence = new Int16Array(PCM_FRAME_SAMPLES);
  private readonly open = new Set<SpokenLine>();
  /** Segments with frames not yet all sent, in send order. */
  private outbound: Segment[] = [];
  private readonly marks = new Map<string, Segment>();
  private synthesis: Promise<void> = Promise.resolve();
  /** Sentences queued behind the one being synthesised, in order; the first may have its request started. */
  private readonly waiting: QueuedSentence[] = [];
  /** A sentence is being synthesised now. */
  private synthesizing = false;
  /** Lines synthesised ahead of their moment, by text. */
  private readonly prepared = new Map<string, PreparedAudio>();
  private enqueuedSeq = 0;
  private sentSeq = 0;
  private markCount = 0;
  private stopped = false;
  /** Synthesis waiting for playback to catch up (one at a time: sentences are synthesised in order). */
  private roomWaiter: (() => void) | null = null;
  /** Speech frames sent, by sequence number modulo REPLAY_FRAMES (PCM, PCM_FRAME_BYTES each). */
  private sentAudio: Buffer | null = null;
  /** sentAudio's samples (the same memory), so a frame is kept without a view of it made per frame. */
  private sentSamples: Int16Array | null = null;
  /** The pacing clock's frame buffer (the same one tick after tick) and a view of its samples, made once. */
  private frameSeen: Buffer | null = null;
  private frameSamples: Int16Array | null = null;
  /** The agent is held (see hold()). */
  private held = false;

  constructor(private readonly options: AgentSpeechOptions) {
    this.pacingClock = options.pacingClock ?? sharedPacingClock;
    this.clock = new FrameClock({
      send: (frame, silence, resumed) => this.sendFrame(frame, silence, resumed),
      timeScale: options.time.timeScale,
      // With ambience the bed plays through silences too, so the stream is continuous; without it nothing is
      // sent between sentences (carriers play silence on their own).
      idle: options.ambience ? 'silence' : 'nothing',
      silenceFrame: Buffer.alloc(PCM_FRAME_BYTES),
      clock: this.pacingClock,
      observer: options.pacingObserver,
    });
  }

  start(): void {
    this.clock.start();
  }

  /** A new agent line. */
  line(options: LineOptions = {}): SpokenLine {
    const line = new SpokenLine(this, options);
    if (this.stopped) line.controller.abort();
    this.open.add(line);
    return line;
  }

  /** Says `text` as a line of its own and resolves once it has played (or was cut). */
  async speak(text: string, options: LineOptions = {}): Promise<SpokenLine> {
    const line = this.line(options);
    const said = line.say(text);
    line.end();
    await said;
    await line.done;
    return line;
  }

  /**
   * Synthesises `text` now and keeps its audio for the sentence that says exactly it later, so a line due at a
   * set moment (the farewell at max_call_duration_secs) starts on time whatever the provider's latency then.
   * Audio not ready by then is dropped and the sentence is synthesised as usual.
   */
  prepare(text: string): void {
    if (this.stopped || this.prepared.has(text)) return;
    const provider = this.options.tts.current;
    const entry: PreparedAudio = { provider, controller: new AbortController(), chunks: null };
    this.prepared.set(text, entry);
    const { signal } = entry.controller;
    // A provider that never answers must not hold the request open for the rest of the call.
    const deadline = setTimeout(() => entry.controller.abort(), this.options.providerTimeoutMs);
    deadline.unref?.();
    void (async () => {
      const chunks: Int16Array[] = [];
      for await (const chunk of provider.synthesize({ text, voice: this.options.voice }, signal)) {
        chunks.push(chunk);
      }
      if (!signal.aborted) entry.chunks = chunks;
    })()
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(deadline);
        if (!entry.chunks && this.prepared.get(text) === entry) this.prepared.delete(text);
      });
  }

  /** The prepared audio of `text` as a request, if it is ready; the preparation is used up either way. */
  private takePrepared(text: string): TtsRequestInFlight | null {
    const entry = this.prepared.get(text);
    if (!entry) return null;
    this.prepared.delete(text);
    if (!entry.chunks) {
      entry.controller.abort();
      return null;
    }
    const chunks = entry.chunks;
    let next = 0;
    const iterator: AsyncIterator<Int16Array> = {
      next: () =>
        Promise.resolve(
          next < chunks.length
            ? { value: chunks[next++], done: false }
            : ({ value: undefined, done: true } as IteratorResult<Int16Array>),
        ),
    };
    return {
      provider: entry.provider,
      iterator,
      first: iterator.next(),
      onAbort: () => undefined,
      release: () => undefined,
    };
  }

  /** Anything not yet heard by the caller: lines being synthesised, queued or awaiting their mark. */
  get busy(): boolean {
    return this.open.size > 0;
  }

  /** The caller may be hearing the agent now: audio queued, sent and not yet played, or held. */
  get audible(): boolean {
    return (
      this.held ||
      this.clock.queuedFrames > 0 ||
      this.marks.size > 0 ||
      this.outbound.some((s) => s.frames > 0)
    );
  }

  /** The agent went quiet for caller sound (hold()) and waits for release() or interrupt(). */
  get holding(): boolean {
    return this.held;
  }

  /**
   * Caller sound over the agent that may or may not be an interruption: the agent goes quiet at once (the carrier
   * clears what it buffered) and its speech waits, synthesis included, for release() (play on from the start of
   * the sentence that was cut) or interrupt() (abandon it). False when nothing was audible.
   */
  hold(): boolean {
    if (this.held || this.stopped || !this.audible) return false;
    this.held = true;
    this.clock.pause();
    // Marks of audio the clear drops come back from the carrier as if played: they are sent again on release.
    for (const segment of this.marks.values()) segment.cancelGrace?.();
    this.marks.clear();
    this.options.transport.send({ type: 'clear' });
    return true;
  }

  /** The hold was a false alarm: the cut sentence plays again from its start, then the rest as it was queued. */
  release(): void {
    if (!this.held || this.stopped) return;
    this.held = false;
    const unplayed = [...this.open]
      .flatMap((line) => line.segments)
      .filter((s) => !s.played && !s.cut && s.frames > 0)
      .sort((a, b) => a.startSeq - b.startSeq);
    const from = Math.max(
      Math.min(unplayed[0]?.startSeq ?? this.sentSeq, this.sentSeq),
      this.sentSeq - REPLAY_FRAMES,
      0,
    );
    const frames: Buffer[] = [];
    for (let seq = from; seq < this.sentSeq && this.sentAudio; seq++) {
      const at = (seq % REPLAY_FRAMES) * PCM_FRAME_BYTES;
      frames.push(this.sentAudio.subarray(at, at + PCM_FRAME_BYTES));
    }
    this.sentSeq = from;
    // A sentence older than the replay reaches (beyond REPLAY_FRAMES) counts as heard, so its line can close.
    for (const segment of unplayed)
      if (segment.endSeq !== null && segment.endSeq <= from) segment.played = true;
    // Every sentence not yet heard whole goes out again in order, each with a new mark after it.
    this.outbound = unplayed.filter((s) => s.endSeq === null || s.endSeq > from);
    for (const segment of this.outbound)
      if (segment.endSeq !== null) segment.mark = `agent-${++this.markCount}`;
    this.clock.requeueFront(frames);
    this.clock.resume();
  }

  get pacing(): PacingStats {
    return {
      framesSent: this.clock.framesSent,
      silenceFramesSent: this.clock.silenceFramesSent,
      underruns: this.clock.underruns,
      stalls: this.clock.stalls,
      jitterP50Ms: this.clock.jitterP50Ms,
      jitterP99Ms: this.clock.jitterP99Ms,
    };
  }

  /** The carrier echoed a mark: everything up to it has played. */
  onPlayed(mark: string): void {
    const segment = this.marks.get(mark);
    if (!segment) return; // a mark of audio already cleared, or from before a restart
    this.marks.delete(mark);
    segment.cancelGrace?.();
    segment.played = true;
    this.check(segment.line);
  }

  /**
   * Barge-in: drops the queued audio, tells the carrier to clear what it buffered, abandons the open lines and
   * closes them with what was played. Returns false when the agent was not speaking.
   */
  interrupt(): boolean {
    if (this.open.size === 0) return false;
    // The carrier only needs a clear when it may still hold audio of ours (not when the model was still
    // thinking and nothing had been sent).
    const audible = this.audible;
    this.cut();
    if (audible) this.options.transport.send({ type: 'clear' });
    return true;
  }

  /** The stream is gone: stop sending, close open lines with what was played. No clear (nobody to tell). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clock.stop();
    this.roomWaiter?.();
    for (const entry of this.prepared.values()) entry.controller.abort();
    this.prepared.clear();
    this.cut();
  }

  async loop(audio: Int16Array, signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.stopped) {
      const line = this.line({ signal });
      // An unlabelled line: it plays and is cut like any, but has no text for the transcript.
      line.play('', audio).catch(() => undefined);
      line.end();
      await line.done;
    }
  }

  /** @internal */
  enqueue(line: SpokenLine, text: string, audio?: Int16Array): Promise<void> {
    line.pendingSynthesis++;
    const sentence: QueuedSentence = { line, text, request: null, ...(audio ? { audio } : {}) };
    this.waiting.push(sentence);
    this.prefetch();
    const run = this.synthesis.then(() => this.synthesize(sentence));
    this.synthesis = run.catch(() => undefined);
    return run
      .catch((error: unknown) => {
        if (!(error instanceof Aborted)) throw error;
      })
      .finally(() => {
        line.pendingSynthesis--;
        this.check(line);
      });
  }

  /** @internal Closes the line once it is complete: ended, synthesised and every sentence played. */
  check(line: SpokenLine): void {
    if (line.closed || !line.ended || line.pendingSynthesis > 0) return;
    // A sentence whose synthesis failed never plays: the line ends with what was heard before it.
    if (!line.segments.every((s) => s.played || s.cut)) return;
    this.close(
      line,
      this.playedText(line),
      line.segments.some((s) => s.cut),
    );
  }

  /**
   * Starts the provider request of the sentence next in line while the current one is synthesised and played,
   * so its first audio is ready when its turn comes: the gap between two sentences is then the speaker's pause,
   * not the provider's latency. One sentence ahead at most, so a long answer never has every sentence
   * synthesised at once.
   */
  private prefetch(): void {
    const ahead = this.waiting[0];
    if (!this.synthesizing || !ahead || ahead.request || ahead.line.signal.aborted || this.stopped) return;
    ahead.request = (ahead.audio ? null : this.takePrepared(ahead.text)) ?? this.request(ahead);
  }

  /** Ready audio as a request: one chunk, nothing to synthesise, nothing to fail. */
  private audioRequest(audio: Int16Array): TtsRequestInFlight {
    let given = false;
    const iterator: AsyncIterator<Int16Array> = {
      next: () =>
        Promise.resolve(
          given
            ? ({ value: undefined, done: true } as IteratorResult<Int16Array>)
            : ((given = true), { value: audio, done: false }),
        ),
    };
    return {
      provider: this.options.tts.current,
      iterator,
      first: iterator.next(),
      onAbort: () => undefined,
      release: () => undefined,
    };
  }

  /** The provider request of one sentence, its first chunk asked for at once; aborted with its line. */
  private request({ line, text, audio }: QueuedSentence): TtsRequestInFlight {
    if (audio) return this.audioRequest(audio);
    const provider = this.options.tts.current;
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    line.signal.addEventListener('abort', onAbort, { once: true });
    let iterator: AsyncIterator<Int16Array> | null = null;
    let first: Promise<IteratorResult<Int16Array>>;
    try {
      iterator = provider
        .synthesize({ text, voice: this.options.voice }, controller.signal)
        [Symbol.asyncIterator]();
      first = iterator.next();
    } catch (error) {
      first = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // Read (or abandoned) in its turn; until then a failure must not be an unhandled rejection.
    first.catch(() => undefined);
    const release = () => {
      controller.abort();
      line.signal.removeEventListener('abort', onAbort);
      void Promise.resolve(iterator?.return?.()).catch(() => undefined);
    };
    return { provider, iterator, first, onAbort, release };
  }

  private async synthesize(sentence: QueuedSentence): Promise<void> {
    this.waiting.splice(this.waiting.indexOf(sentence), 1);
    const { line } = sentence;
    if (line.signal.aborted || this.stopped) {
      sentence.request?.release();
      return;
    }
    this.synthesizing = true;
    try {
      // Asked ahead of a provider failure, of the provider that failed: asked again of the current one.
      if (sentence.request && sentence.request.provider !== this.options.tts.current) {
        sentence.request.release();
        sentence.request = null;
      }
      const request =
        sentence.request ??
        (sentence.audio ? null : this.takePrepared(sentence.text)) ??
        this.request(sentence);
      await this.synthesizeNow(sentence, request);
    } finally {
      this.synthesizing = false;
    }
  }

  private async synthesizeNow(sentence: QueuedSentence, first: TtsRequestInFlight): Promise<void> {
    const { line, text } = sentence;
    // Started while this one plays: the next sentence's request.
    this.prefetch();
    const segment = new Segment(`agent-${++this.markCount}`, text, line, this.enqueuedSeq);
    line.segments.push(segment);
    this.outbound.push(segment);
    let request = first;
    for (;;) {
      try {
        await this.stream(segment, request);
        break;
      } catch (error) {
        request.release();
        this.framer.reset();
        const failure =
          error instanceof ProviderFailure || error instanceof Aborted
            ? error
            : new ProviderFailure('tts', error);
        // The sentence is said again, from its start, by the next provider (a request made on the provider
        // that failed, prefetched before it did, is made again on the current one).
        const failed = request.provider;
        const movedOn = this.options.tts.current !== failed;
        if (
          failure instanceof ProviderFailure &&
          !line.signal.aborted &&
          !this.stopped &&
          this.options.tts.fallBackFrom(failed)
        ) {
          if (!movedOn) this.options.onFallback?.(failure, this.options.tts.current.name);
          request = this.request(sentence);
          continue;
        }
        segment.endSeq = this.enqueuedSeq;
        segment.cut = true;
        this.outbound = this.outbound.filter((s) => s !== segment);
        throw failure;
      }
    }
    // Each sentence is its own utterance for the clock: the pause while the model writes the next one is a
    // pause, not an underrun.
    this.clock.endUtterance();
    segment.endSeq = this.enqueuedSeq;
    if (segment.frames === 0) {
      segment.played = true;
      this.outbound = this.outbound.filter((s) => s !== segment);
    } else if (this.sentSeq >= segment.endSeq) {
      this.outbound = this.outbound.filter((s) => s !== segment);
      this.sendMark(segment);
    }
  }

  /** Queues one request's audio of a sentence as frames, paced by playback. */
  private async stream(segment: Segment, request: TtsRequestInFlight): Promise<void> {
    const { line } = segment;
    const { iterator, onAbort } = request;
    let pending: Promise<IteratorResult<Int16Array>> | null = request.first;
    const timeoutMs = line.options.timeoutMs ?? this.options.providerTimeoutMs;
    try {
      for (;;) {
        const asked = pending ?? iterator!.next();
        pending = null;
        const next = await withProviderTimeout('tts', asked, timeoutMs, line.signal, onAbort);
        if (next.done) break;
        if (line.signal.aborted) throw new Aborted();
        line.ttsFirstByteAtMs ??= this.options.time.now();
        line.ttsProvider = request.provider.name;
        this.framer.pushEach(pcm16ToBuffer(next.value), (frame) => this.queueFrame(segment, frame));
        // Resampling a piece is the heaviest work on this thread: let frames due meanwhile leave now.
        this.pacingClock.catchUp?.();
        await this.playbackCatchUp(line.signal);
        if (line.signal.aborted) throw new Aborted();
      }
      const last = this.framer.flush();
      if (last) this.queueFrame(segment, last);
    } finally {
      line.signal.removeEventListener('abort', onAbort);
    }
  }

  /** Resolves once the queued audio is within READ_AHEAD_FRAMES of playback, or the line is abandoned. */
  private playbackCatchUp(signal: AbortSignal): Promise<void> {
    if (this.clock.queuedFrames <= READ_AHEAD_FRAMES || signal.aborted || this.stopped)
      return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        if (this.roomWaiter === done) this.roomWaiter = null;
        resolve();
      };
      this.roomWaiter = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private queueFrame(segment: Segment, frame: Buffer): void {
    this.clock.enqueue(frame);
    segment.frames++;
    this.enqueuedSeq++;
  }

  private sendFrame(frame: Buffer, silence: boolean, resumed: boolean): void {
    const atMs = this.options.time.now();
    // The silence frame is shared by every idle tick, so ambience is mixed into a scratch copy.
    const pcm = silence ? this.silence.fill(0) : this.samplesOf(frame);
    // Kept before the ambience is mixed in: a replay is mixed again as it goes out.
    if (!silence) this.keepSent(pcm);
    this.options.ambience?.mixUnder(pcm);
    this.options.recorder?.agent(pcm, !resumed);
    this.options.transport.send({ type: 'sendAudio', payload: mulawEncode(pcm) });
    if (silence) return;
    if (this.roomWaiter && this.clock.queuedFrames <= READ_AHEAD_FRAMES) this.roomWaiter();
    this.sentSeq++;
    const segment = this.outbound[0];
    if (!segment) return;
    if (this.sentSeq - 1 === segment.startSeq && segment.line.firstFrameAtMs === null) {
      segment.line.firstFrameAtMs = atMs;
      segment.line.options.onFirstFrame?.(atMs);
      this.options.onLineStarted?.(segment.line);
    }
    if (segment.endSeq !== null && this.sentSeq >= segment.endSeq) {
      this.outbound.shift();
      this.sendMark(segment);
    }
  }

  /**
   * The samples of a frame the pacing clock sent: it hands out one buffer tick after tick, so a view sharing its
   * memory is made once (a copy, made where the memory cannot be shared, is made each time).
   */
  private samplesOf(frame: Buffer): Int16Array {
    if (frame === this.frameSeen && this.frameSamples) return this.frameSamples;
    const samples = pcm16FromBuffer(frame);
    const shared = samples.buffer === frame.buffer;
    this.frameSeen = shared ? frame : null;
    this.frameSamples = shared ? samples : null;
    return samples;
  }

  /** Keeps the frame with sequence number sentSeq for a replay (see REPLAY_FRAMES). */
  private keepSent(pcm: Int16Array): void {
    if (!this.sentAudio || !this.sentSamples) {
      // Its own memory (Buffer.alloc never pools), so the samples' view is aligned.
      this.sentAudio = Buffer.alloc(REPLAY_FRAMES * PCM_FRAME_BYTES);
      this.sentSamples = new Int16Array(
        this.sentAudio.buffer,
        this.sentAudio.byteOffset,
        REPLAY_FRAMES * PCM_FRAME_SAMPLES,
      );
    }
    const at = (this.sentSeq % REPLAY_FRAMES) * PCM_FRAME_SAMPLES;
    this.sentSamples.set(pcm.length <= PCM_FRAME_SAMPLES ? pcm : pcm.subarray(0, PCM_FRAME_SAMPLES), at);
  }

  private sendMark(segment: Segment): void {
    this.marks.set(segment.mark, segment);
    this.options.transport.send({ type: 'mark', name: segment.mark });
    segment.cancelGrace = this.options.time.after(MARK_GRACE_MS, () => this.onPlayed(segment.mark));
  }

  /** Words of the line the caller heard: whole sentences whose audio went out, and a share of the current one. */
  private playedText(line: SpokenLine): string {
    const words: string[] = [];
    for (const segment of line.segments) {
      const all = segment.text.split(/\s+/).filter(Boolean);
      if (segment.frames === 0) {
        if (segment.cut) break;
        continue; // the provider had nothing to say for it
      }
      if (!segment.cut && (segment.played || (segment.endSeq !== null && this.sentSeq >= segment.endSeq))) {
        words.push(...all);
        continue;
      }
      const sent = Math.min(segment.frames, Math.max(0, this.sentSeq - segment.startSeq));
      if (sent === 0) break;
      const total =
        segment.endSeq !== null && !segment.cut
          ? segment.frames
          : Math.max(segment.frames, (all.length * ESTIMATED_MS_PER_WORD) / FRAME_MS);
      words.push(...all.slice(0, Math.floor((all.length * sent) / total)));
      break;
    }
    return words.join(' ');
  }

  private cut(): void {
    const lines = [...this.open];
    const texts = lines.map((line) => this.playedText(line));
    this.held = false;
    this.clock.clear();
    this.clock.resume();
    this.framer.reset();
    this.enqueuedSeq = this.sentSeq;
    this.outbound = [];
    for (const segment of this.marks.values()) segment.cancelGrace?.();
    this.marks.clear();
    lines.forEach((line, i) => {
      line.controller.abort();
      const heardAll =
        line.ended &&
        line.pendingSynthesis === 0 &&
        line.segments.every((s) => !s.cut && (s.played || (s.endSeq !== null && this.sentSeq >= s.endSeq)));
      this.close(line, texts[i], !heardAll);
    });
  }

  private close(line: SpokenLine, text: string, interrupted: boolean): void {
    if (line.closed) return;
    this.open.delete(line);
    line.close(text, interrupted);
    this.options.onLineDone(line);
  }
}
