// The caller's side of the call: mu-law frames -> PCM16 -> voice activity detection and endpointing -> the STT
// session, one utterance at a time. Speech start is what barge-in reacts to; the words so far (partial text) and
// pauses feed turn-taking; the endpoint hands the turn over.

import { mulawDecode, PcmBuffer, VoiceActivityDetector, type VadEvent } from '@vap/media';
import type { SttProvider, SttSession } from '@vap/speech';
import type { CallRecorder } from './call-recorder';
import type { MediaTime } from './media-time';
import type { ProviderChain } from './provider-chain';
import { Aborted, ProviderFailure, withProviderTimeout } from './provider-failure';
import { Endpointer, type EndpointBounds } from './turn-taking/endpointer';

/**
 * Audio kept from before the detector decided speech started, sent to STT with the utterance: the detector needs
 * MIN_SPEECH_MS of voice to decide, and soft onsets (an "h", an "s") sit below its threshold.
 */
export const PRE_ROLL_MS = 200;
const PRE_ROLL_SAMPLES = (PRE_ROLL_MS * 8000) / 1000;

/**
 * Default longest utterance, media ms: a caller (or a line's noise) that never pauses would otherwise grow one
 * utterance, and the STT request it becomes, without limit.
 */
export const MAX_UTTERANCE_MS = 30_000;

/** One stretch of caller speech, start to endpoint (pauses shorter than the endpoint included). */
export interface Utterance {
  /** Numbers the caller's utterances of a call, so turn-taking can tell their events apart. */
  readonly id: number;
  /** Media ms when the speech began. */
  startedAtMs: number;
  /** Media ms when the speech ended (the last voiced audio, before the endpoint silence). */
  endedAtMs: number | null;
  /** Media ms when the endpointer judged the turn over. */
  endpointAtMs: number | null;
  /** The words so far, as the STT provider knows them before its final result ('' when none yet). */
  partial: string;
  /** The caller is in a pause of this utterance (silence shorter than the endpoint so far). */
  paused: boolean;
  /** The endpoint was reached (or the utterance cut at the cap): its final text is on its way. */
  ended: boolean;
  /** Media ms of the caller's audio it holds so far (pre-roll included): the caller's clock, not the wall's. */
  audioMs: number;
}

interface PendingUtterance extends Utterance {
  /** Frames waiting for the STT session (it transcribes one utterance at a time). */
  frames: Int16Array[];
  /** Samples captured so far (pre-roll included), against the utterance cap. */
  samples: number;
  /** Detector ms where the current pause began (its first silent frame), while paused. */
  pauseVadMs: number;
  /** A speculative transcription of this pause is under way (providers without interim results). */
  speculating: boolean;
}

export interface CallerInputOptions {
  /** The STT providers in fallback order: one that fails has the utterance in flight said again to the next. */
  stt: ProviderChain<SttProvider>;
  languages: string[];
  time: MediaTime;
  recorder: CallRecorder | null;
  providerTimeoutMs: number;
  /** An utterance that reaches this many media ms is cut and transcribed; the speech goes on as the next one. */
  maxUtteranceMs: number;
  /** The silence bounds of adaptive endpointing (the agent's turn_taking). */
  endpointing: EndpointBounds;
  /** The caller started speaking (barge-in point). */
  onSpeechStart(utterance: Utterance): void;
  /** The words so far of an utterance changed (interim results, offline text, a speculative transcription). */
  onPartial?(utterance: Utterance): void;
  /** The caller paused (PAUSE_MS of silence) without the turn being over yet. */
  onPause?(utterance: Utterance): void;
  /** The caller spoke again within the pause: the utterance goes on. */
  onResume?(utterance: Utterance): void;
  /** STT's text for an utterance ('' when nothing was understood), at `finalAtMs` media time, and who gave it. */
  onUtterance(
    utterance: Utterance,
    text: string,
    finalAtMs: number,
    provider: SttProvider['name'],
    language: string | undefined,
  ): void;
  /** Every STT provider failed: the call cannot go on. */
  onFailure(failure: ProviderFailure): void;
  /** `failure` handed the call over to the next STT provider, `next`. */
  onFallback?(failure: ProviderFailure, next: SttProvider['name']): void;
}

export class CallerInput {
  /**
   * The detector ends speech at a pause (PAUSE_MS of silence); the endpointer then decides, from the words so
   * far, how much more silence ends the turn (see Endpointer).
   */
  private readonly vad: VoiceActivityDetector;
  private readonly endpointer: Endpointer;
  private utteranceCount = 0;
  private readonly controller = new AbortController();
  /**
   * The frame being handled, decoded. One buffer per call, reused frame after frame (the detector, the recorder
   * and the STT session copy what they keep): 50 decoded frames a second per call that outlived the young
   * generation (the pre-roll alone holds 200 ms of them) were most of what a busy replica promoted to the old
   * generation, whose collections pause every call's outbound audio.
   */
  private pcm = new Int16Array(0);
  /** The last PRE_ROLL_MS of audio before speech, a ring: `preRollAt` is where the next sample goes. */
  private readonly preRoll = new Int16Array(PRE_ROLL_SAMPLES);
  private preRollAt = 0;
  private preRollSamples = 0;
  private capturing: PendingUtterance | null = null;
  private readonly queue: PendingUtterance[] = [];
  private live: PendingUtterance | null = null;
  private session: SttSession | null = null;
  /** The provider whose session `session` is. */
  private sessionProvider: SttProvider | null = null;
  /**
   * The live utterance's audio as the session got it, kept while a provider is left to fall back on: a session
   * that fails takes what it was given with it, and the next provider hears the utterance from its start.
   */
  private readonly liveAudio = new PcmBuffer();
  private closed = false;
  private readonly maxUtteranceSamples: number;
  /** False while the caller's speech must not start turns (voicemail message, the final farewell). */
  listening = true;
  /** Media ms of caller audio the carrier has delivered (mu-law 8 kHz: 8 bytes a millisecond). */
  heardMs = 0;

  constructor(private readonly options: CallerInputOptions) {
    this.maxUtteranceSamples = (options.maxUtteranceMs * 8000) / 1000;
    this.endpointer = new Endpointer(options.endpointing);
    this.vad = new VoiceActivityDetector({ silenceMs: this.endpointer.pauseMs });
  }

  /**
   * Opens the current STT provider's session (the next provider's, when one fails to open); audio that arrives
   * meanwhile waits for it.
   */
  async open(): Promise<void> {
    for (;;) {
      const provider = this.options.stt.current;
      try {
        const session = await withProviderTimeout(
          'stt',
          provider.open({ languages: this.options.languages }),
          this.options.providerTimeoutMs,
          this.controller.signal,
        );
        if (this.closed) {
          await session.close().catch(() => undefined);
          return;
        }
        this.session = session;
        this.sessionProvider = provider;
        session.onPartial = (text) => this.partialHeard(text);
        this.pump();
        return;
      } catch (error) {
        if (error instanceof Aborted || this.closed) return;
        if (!this.fallBack(provider, error as ProviderFailure)) return;
      }
    }
  }

  /** True between the detector's speech start and the endpoint. */
  get speaking(): boolean {
    return this.capturing !== null;
  }

  /** One media frame from the carrier. */
  audio(payload: Buffer): void {
    if (this.closed) return;
    this.heardMs += payload.length / 8;
    if (this.pcm.length !== payload.length) this.pcm = new Int16Array(payload.length);
    const pcm = mulawDecode(payload, this.pcm);
    const now = this.options.time.now();
    this.options.recorder?.caller(pcm);
    if (!this.listening) return;
    const event = this.vad.process(pcm);
    const capturing = this.capturing;
    if (capturing) this.push(capturing, pcm);
    else this.keepPreRoll(pcm);
    if (event?.type === 'speech_start') {
      if (capturing?.paused) this.resumed(capturing);
      else this.speechStarted(event, now);
    } else if (event?.type === 'speech_end' && capturing) this.paused(capturing, event, now);
    if (!this.capturing) return;
    if (this.capturing.paused) this.checkEndpoint(this.capturing, now);
    else if (this.capturing.samples >= this.maxUtteranceSamples) this.cutUtterance(now);
  }

  /** Stops listening, drops pending utterances and releases the STT session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.controller.abort();
    this.queue.length = 0;
    this.capturing = null;
    this.live = null;
    this.liveAudio.clear();
    await this.session?.close().catch(() => undefined);
  }

  private keepPreRoll(pcm: Int16Array): void {
    const ring = this.preRoll;
    // Only the newest ring.length samples of a longer frame can stay.
    const kept = pcm.length > ring.length ? pcm.subarray(pcm.length - ring.length) : pcm;
    const untilWrap = ring.length - this.preRollAt;
    if (kept.length <= untilWrap) {
      ring.set(kept, this.preRollAt);
    } else {
      ring.set(kept.subarray(0, untilWrap), this.preRollAt);
      ring.set(kept.subarray(untilWrap), 0);
    }
    this.preRollAt = (this.preRollAt + kept.length) % ring.length;
    this.preRollSamples = Math.min(ring.length, this.preRollSamples + kept.length);
  }

  /** The pre-roll, oldest sample first, as a buffer of its own; the ring starts empty again. */
  private takePreRoll(): Int16Array {
    const ring = this.preRoll;
    const out = new Int16Array(this.preRollSamples);
    const start = (this.preRollAt - this.preRollSamples + ring.length) % ring.length;
    const firstPart = Math.min(out.length, ring.length - start);
    out.set(ring.subarray(start, start + firstPart), 0);
    out.set(ring.subarray(0, out.length - firstPart), firstPart);
    this.preRollSamples = 0;
    return out;
  }

  /** Media time of a detector time (the detector counts the audio's own ms). */
  private mediaMsOf(vadMs: number, now: number): number {
    return Math.max(0, now - (this.vad.nowMs - vadMs));
  }

  private speechStarted(event: VadEvent, now: number): void {
    const utterance = this.beginUtterance(this.mediaMsOf(event.atMs, now));
    if (this.preRollSamples > 0) this.push(utterance, this.takePreRoll());
    this.pump();
    this.options.onSpeechStart(utterance);
  }

  private beginUtterance(startedAtMs: number): PendingUtterance {
    const utterance: PendingUtterance = {
      id: ++this.utteranceCount,
      startedAtMs,
      endedAtMs: null,
      endpointAtMs: null,
      partial: '',
      paused: false,
      frames: [],
      samples: 0,
      ended: false,
      audioMs: 0,
      pauseVadMs: 0,
      speculating: false,
    };
    this.capturing = utterance;
    this.queue.push(utterance);
    return utterance;
  }

  /** The detector heard a pause: the speech so far ends there unless the caller goes on before the endpoint. */
  private paused(utterance: PendingUtterance, event: VadEvent, now: number): void {
    utterance.paused = true;
    utterance.pauseVadMs = event.atMs;
    utterance.endedAtMs = this.mediaMsOf(event.atMs, now);
    this.speculate(utterance);
    this.options.onPause?.(utterance);
  }

  private resumed(utterance: PendingUtterance): void {
    utterance.paused = false;
    utterance.endedAtMs = null;
    this.options.onResume?.(utterance);
  }

  /** Ends the turn once the pause has lasted the silence the words so far call for. */
  private checkEndpoint(utterance: PendingUtterance, now: number): void {
    const silenceMs = this.vad.nowMs - utterance.pauseVadMs;
    if (silenceMs < this.endpointer.requiredSilenceMs(utterance.partial)) return;
    utterance.paused = false;
    utterance.endpointAtMs = now;
    // A frame can arrive late, never early: each frame's arrival bounds when the speech really ended from above.
    // The pause placed it by the frame that showed the pause; the newest frame may bound it earlier (the silence
    // after it came in a burst, as after a stall of the carrier or of this process), so the endpoint is never
    // reported as sooner than the silence it waited for.
    const endedAtMs = this.mediaMsOf(utterance.pauseVadMs, now);
    this.endUtterance(Math.min(utterance.endedAtMs ?? endedAtMs, endedAtMs));
  }

  /**
   * A provider without interim results (it transcribes whole utterances) is asked for the words so far at a
   * pause, so endpointing and early replies have them; the request runs beside the utterance, which goes on.
   */
  private speculate(utterance: PendingUtterance): void {
    const session = this.session;
    if (!session?.speculate || utterance !== this.live || utterance.speculating) return;
    utterance.speculating = true;
    withProviderTimeout(
      'stt',
      session.speculate(this.controller.signal),
      this.options.providerTimeoutMs,
      this.controller.signal,
    ).then(
      (text) => {
        utterance.speculating = false;
        if (this.closed || utterance.ended || this.session !== session) return;
        this.setPartial(utterance, text);
      },
      // A failed speculation costs nothing but its early answer: the final transcription is what counts.
      () => (utterance.speculating = false),
    );
  }

  /** The session's words so far for the utterance it is transcribing. */
  private partialHeard(text: string): void {
    const utterance = this.live;
    if (!utterance || utterance.ended || this.closed) return;
    this.setPartial(utterance, text);
  }

  private setPartial(utterance: PendingUtterance, text: string): void {
    const partial = text.trim();
    if (partial === utterance.partial) return;
    utterance.partial = partial;
    this.options.onPartial?.(utterance);
  }

  private endUtterance(endedAtMs: number): void {
    const utterance = this.capturing!;
    this.capturing = null;
    utterance.endedAtMs = endedAtMs;
    utterance.endpointAtMs ??= endedAtMs;
    utterance.ended = true;
    if (utterance === this.live) this.finishLive();
  }

  /**
   * The utterance reached the cap while the caller still speaks: it is transcribed as it stands, and what the
   * caller says on starts the next one at once (a speech start like any other), so nothing said is lost.
   */
  private cutUtterance(now: number): void {
    this.endUtterance(now);
    const next = this.beginUtterance(now);
    this.pump();
    this.options.onSpeechStart(next);
  }

  private push(utterance: PendingUtterance, frame: Int16Array): void {
    utterance.samples += frame.length;
    utterance.audioMs = utterance.samples / 8;
    if (utterance === this.live) this.feed(frame);
    // Waits for the session: a copy, as the frame's buffer is reused.
    else utterance.frames.push(frame.slice());
  }

  /** Audio of the live utterance to the session, and kept while there is a provider to replay it to. */
  private feed(frame: Int16Array): void {
    this.session!.push(frame);
    if (this.options.stt.canFallBack) this.liveAudio.write(frame);
  }

  /** Starts streaming the oldest waiting utterance once the session is free. */
  private pump(): void {
    if (this.closed || this.live || !this.session || this.queue.length === 0) return;
    const next = this.queue[0];
    this.live = next;
    this.liveAudio.clear();
    for (const frame of next.frames) this.feed(frame);
    next.frames = [];
    if (next.ended) this.finishLive();
  }

  private finishLive(): void {
    const utterance = this.live!;
    const session = this.session!;
    const provider = this.sessionProvider!;
    const signal = this.controller.signal;
    withProviderTimeout('stt', session.finish(signal), this.options.providerTimeoutMs, signal).then(
      (text) => {
        if (this.closed) return;
        this.queue.shift();
        this.live = null;
        this.liveAudio.clear();
        this.options.onUtterance(
          utterance,
          text.trim(),
          this.options.time.now(),
          provider.name,
          session.language,
        );
        this.pump();
      },
      (error: unknown) => {
        if (error instanceof Aborted || this.closed) return;
        // The utterance goes back to waiting, with all its audio so far, for the next provider's session.
        this.session = null;
        this.sessionProvider = null;
        void session.close().catch(() => undefined);
        if (this.live === utterance) {
          utterance.frames = this.liveAudio.length ? [this.liveAudio.copy()] : [];
          this.liveAudio.clear();
          this.live = null;
        }
        if (this.fallBack(provider, error as ProviderFailure)) void this.open();
      },
    );
  }

  /** `provider` failed: true when the next one takes over, else the failure ends the call. */
  private fallBack(provider: SttProvider, failure: ProviderFailure): boolean {
    if (!this.options.stt.fallBackFrom(provider)) {
      this.options.onFailure(failure);
      return false;
    }
    this.options.onFallback?.(failure, this.options.stt.current.name);
    return true;
  }
}
