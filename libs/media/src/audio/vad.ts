// Energy-based voice activity detection and endpointing for the caller's side of the call: when the caller starts
// speaking (barge-in, start listening) and when they have finished (hand the turn to the agent).

import { levelDbfs } from './pcm';

/**
 * The detector's default silence before speech ends, in ms. The voice runtime's caller input uses a short pause
 * instead and decides the endpoint from the words (adaptive endpointing); this is also the silence after which a
 * streaming STT provider is asked to mark its own endpoint (Deepgram's `endpointing`).
 */
export const ENDPOINT_SILENCE_MS = 700;

/** Voiced audio needed before speech counts as started, in ms: shorter than a syllable, longer than a click. */
export const MIN_SPEECH_MS = 60;

/** Default level above which a frame counts as voiced, in dBFS (telephone speech sits around -30 to -15). */
export const SPEECH_THRESHOLD_DBFS = -40;

export interface VadOptions {
  thresholdDbfs?: number;
  /** Once speaking, frames stay voiced down to threshold - hysteresisDb, so trailing syllables do not flap. */
  hysteresisDb?: number;
  minSpeechMs?: number;
  silenceMs?: number;
  sampleRate?: number;
  /**
   * Track the background level and require speech to be this many dB above it (the fixed threshold still
   * applies). Off when undefined.
   */
  noiseMarginDb?: number;
  /** Time constant with which the noise floor rises toward a louder background, in ms. */
  noiseRiseMs?: number;
}

export interface VadEvent {
  type: 'speech_start' | 'speech_end';
  /** Where the speech began (first voiced frame) or ended (first silent frame), in stream ms. */
  atMs: number;
  /** When the detector decided, in stream ms (atMs plus minSpeechMs or silenceMs). */
  detectedAtMs: number;
}

/**
 * Feed consecutive frames; each call may return a start or end event. Time is the audio's own clock: it
 * advances by each frame's duration from 0 (or `startMs`), so results do not depend on wall time.
 */
export class VoiceActivityDetector {
  private readonly thresholdDbfs: number;
  private readonly hysteresisDb: number;
  private readonly minSpeechMs: number;
  private readonly silenceMs: number;
  private readonly sampleRate: number;
  private readonly noiseMarginDb: number | undefined;
  private readonly noiseRiseMs: number;
  private speechNow = false;
  /** Start of the current run of voiced (idle) or unvoiced (speaking) frames, or undefined. */
  private runStart: number | undefined;
  private clockMs: number;
  private noiseFloor: number;

  constructor(options: VadOptions = {}, startMs = 0) {
    this.thresholdDbfs = options.thresholdDbfs ?? SPEECH_THRESHOLD_DBFS;
    this.hysteresisDb = options.hysteresisDb ?? 6;
    this.minSpeechMs = options.minSpeechMs ?? MIN_SPEECH_MS;
    this.silenceMs = options.silenceMs ?? ENDPOINT_SILENCE_MS;
    this.sampleRate = options.sampleRate ?? 8000;
    this.noiseMarginDb = options.noiseMarginDb;
    this.noiseRiseMs = options.noiseRiseMs ?? 3000;
    this.noiseFloor = this.thresholdDbfs - (this.noiseMarginDb ?? 0);
    this.clockMs = startMs;
  }

  /** Background level estimate, in dBFS (meaningful with noiseMarginDb). */
  get noiseFloorDbfs(): number {
    return this.noiseFloor;
  }

  get speaking(): boolean {
    return this.speechNow;
  }

  /** Stream time after the last frame, in ms. */
  get nowMs(): number {
    return this.clockMs;
  }

  /** The level in force for starting speech, in dBFS. */
  get effectiveThresholdDbfs(): number {
    if (this.noiseMarginDb === undefined) return this.thresholdDbfs;
    return Math.max(this.thresholdDbfs, this.noiseFloor + this.noiseMarginDb);
  }

  /** One PCM16 frame at the configured sample rate. */
  process(frame: Int16Array): VadEvent | undefined {
    return this.processLevel(levelDbfs(frame), (frame.length * 1000) / this.sampleRate);
  }

  /** A frame given by its level, for callers that already measured it. */
  processLevel(dbfs: number, durationMs: number): VadEvent | undefined {
    const frameStart = this.clockMs;
    this.clockMs += durationMs;
    const threshold = this.effectiveThresholdDbfs - (this.speechNow ? this.hysteresisDb : 0);
    this.trackNoise(dbfs, durationMs);
    const voiced = dbfs >= threshold;
    if (!this.speechNow) {
      if (!voiced) {
        this.runStart = undefined;
        return undefined;
      }
      this.runStart ??= frameStart;
      if (this.clockMs - this.runStart < this.minSpeechMs) return undefined;
      this.speechNow = true;
      const atMs = this.runStart;
      this.runStart = undefined;
      return { type: 'speech_start', atMs, detectedAtMs: this.clockMs };
    }
    if (voiced) {
      this.runStart = undefined;
      return undefined;
    }
    this.runStart ??= frameStart;
    if (this.clockMs - this.runStart < this.silenceMs) return undefined;
    this.speechNow = false;
    const atMs = this.runStart;
    this.runStart = undefined;
    return { type: 'speech_end', atMs, detectedAtMs: this.clockMs };
  }

  /** Falls at once to a quieter background, rises slowly toward a louder one (so speech barely moves it). */
  private trackNoise(dbfs: number, durationMs: number): void {
    if (this.noiseMarginDb === undefined) return;
    if (dbfs < this.noiseFloor) this.noiseFloor = dbfs;
    else this.noiseFloor += (dbfs - this.noiseFloor) * Math.min(1, durationMs / this.noiseRiseMs);
  }
}
