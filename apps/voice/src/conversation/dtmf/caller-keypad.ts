// The caller's key presses as caller input: keys are collected into an entry, ended by the agent's terminator,
// by max_digits keys, or by timeout_ms of keypad silence (as Twilio's <Gather> or Retell's user DTMF options do),
// and the entry is handed over as one caller turn in the documented form (dtmfInputText).

import { DTMF_ENTRY_MAX, DtmfSnapshotDefaults, dtmfInputText, type DtmfSnapshot } from '@vap/messages';

/** The media clock the keypad's timeout runs on (the conversation's MediaTime). */
export interface KeypadClock {
  now(): number;
  after(mediaMs: number, callback: () => void): () => void;
}

export interface KeypadEntry {
  /** The keys pressed, without the terminator. */
  digits: string;
  /** The terminator that ended the entry, or null when its length or the timeout did. */
  terminator: string | null;
  /** What the model and the transcript get: `[keypad] 4711 #`. */
  text: string;
  /** Media ms of the entry's first key. */
  startedAtMs: number;
}

export interface CallerKeypadOptions {
  config: DtmfSnapshot;
  clock: KeypadClock;
  /** A key was taken (the first of an entry or not): the caller is taking the floor, as speech does. */
  onKey: (key: string) => void;
  onEntry: (entry: KeypadEntry) => void;
}

/**
 * Keys a person can press: about ten a second at most (Q.24 asks for 40 ms tones and 40 ms gaps). A stream
 * sending more is not a person; the extra keys are dropped, so a flood of dtmf messages starts no flood of
 * turns. A burst of KEY_BURST is taken at once (a carrier may deliver keys late and together).
 */
export const KEY_INTERVAL_MS = 80;
export const KEY_BURST = 16;

export class CallerKeypad {
  private readonly config: DtmfSnapshot;
  private digits = '';
  private startedAtMs = 0;
  private cancelTimeout: (() => void) | null = null;
  private tokens = KEY_BURST;
  private refilledAtMs: number;
  private stopped = false;

  constructor(private readonly options: CallerKeypadOptions) {
    this.config = { ...DtmfSnapshotDefaults, ...options.config };
    this.refilledAtMs = options.clock.now();
  }

  /** Whether key presses are heard at all (the agent's dtmf.enabled). */
  get enabled(): boolean {
    return this.config.enabled;
  }

  /** Keys of the entry under way. */
  get pending(): string {
    return this.digits;
  }

  /** A key press (a keypad key, as the media codecs deliver it); false when it was not taken. */
  press(key: string): boolean {
    if (!this.config.enabled || this.stopped || !this.takeToken()) return false;
    this.options.onKey(key);
    if (this.stopped) return false;
    if (key === this.config.terminator) {
      this.complete(key);
      return true;
    }
    if (this.digits.length === 0) this.startedAtMs = this.options.clock.now();
    this.digits += key;
    const limit = Math.min(this.config.maxDigits ?? DTMF_ENTRY_MAX, DTMF_ENTRY_MAX);
    if (this.digits.length >= limit) {
      this.complete(null);
      return true;
    }
    this.cancelTimeout?.();
    this.cancelTimeout = this.options.clock.after(this.config.timeoutMs, () => {
      this.cancelTimeout = null;
      this.complete(null);
    });
    return true;
  }

  /** Drops the entry under way and takes no more keys (the call is ending). */
  stop(): void {
    this.stopped = true;
    this.reset();
  }

  private complete(terminator: string | null): void {
    const digits = this.digits;
    const startedAtMs = this.digits ? this.startedAtMs : this.options.clock.now();
    this.reset();
    // A terminator alone still tells the model something (the caller skipped the entry, or confirms).
    if (!digits && !terminator) return;
    this.options.onEntry({ digits, terminator, text: dtmfInputText(digits, terminator), startedAtMs });
  }

  private reset(): void {
    this.digits = '';
    this.cancelTimeout?.();
    this.cancelTimeout = null;
  }

  private takeToken(): boolean {
    const now = this.options.clock.now();
    const earned = Math.floor((now - this.refilledAtMs) / KEY_INTERVAL_MS);
    if (earned > 0) {
      this.tokens = Math.min(KEY_BURST, this.tokens + earned);
      this.refilledAtMs = this.tokens === KEY_BURST ? now : this.refilledAtMs + earned * KEY_INTERVAL_MS;
    }
    if (this.tokens === 0) return false;
    this.tokens--;
    return true;
  }
}
