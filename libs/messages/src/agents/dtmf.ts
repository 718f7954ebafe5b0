/**
 * Touch tones (DTMF) on an agent's calls: how the caller's key presses become caller input (`dtmf` on the API),
 * and which digits the agent may send with its send_dtmf tool (`send_dtmf_enabled`). The voice service applies
 * both; the agents service stores them.
 */

/** Keys that can end an entry early. */
export const DTMF_TERMINATORS = ['#', '*'] as const;
export type DtmfTerminator = (typeof DTMF_TERMINATORS)[number];

/** Bounds of the caller-input settings. */
export const DTMF_LIMITS = {
  max_digits: { min: 1, max: 32 },
  timeout_ms: { min: 500, max: 15_000 },
} as const;

/**
 * The most digits one entry holds, whatever max_digits says: past it the entry is handed over as it is, so a
 * caller (or a faulty carrier) holding keys down never grows the buffer.
 */
export const DTMF_ENTRY_MAX = DTMF_LIMITS.max_digits.max;

/** send_dtmf's `digits`: keypad keys, and `w` for a half-second pause (as Plivo and Twilio read it). */
export const SEND_DTMF_PATTERN = /^[0-9*#A-Dw]{1,32}$/;
export const SEND_DTMF_MAX = 32;

/** How the caller's key presses reach the agent's model, as the API answers it and the agents service stores it. */
export interface DtmfInputConfig {
  /** Key presses are heard: collected into entries that reach the model as caller input. Off: ignored. */
  enabled: boolean;
  /** An entry ends once it has this many digits (a fixed-length entry such as an account number); null: no fixed length. */
  max_digits: number | null;
  /** A key that ends the entry early (not part of the digits); null: none. */
  terminator: DtmfTerminator | null;
  /** Media ms after the last key press that end an entry not ended otherwise. */
  timeout_ms: number;
}

export const DtmfDefaults: DtmfInputConfig = {
  enabled: false,
  max_digits: null,
  terminator: '#',
  timeout_ms: 3000,
};

/** The caller-input settings as a call's agent snapshot carries them: the same settings, camelCase. */
export interface DtmfSnapshot {
  enabled: boolean;
  maxDigits: number | null;
  terminator: DtmfTerminator | null;
  timeoutMs: number;
}

export function dtmfSnapshotOf(config: DtmfInputConfig): DtmfSnapshot {
  return {
    enabled: config.enabled,
    maxDigits: config.max_digits,
    terminator: config.terminator,
    timeoutMs: config.timeout_ms,
  };
}

/** DtmfDefaults as the snapshot spells them. */
export const DtmfSnapshotDefaults: DtmfSnapshot = dtmfSnapshotOf(DtmfDefaults);

/**
 * The caller input an entry becomes, in the model's history and the call's transcript: `[keypad] 1234`. A
 * terminator that ended it is shown after the digits (`[keypad] 1234 #`) so the model can tell an entry the
 * caller finished from one that timed out.
 */
export const DTMF_INPUT_PREFIX = '[keypad]';

export function dtmfInputText(digits: string, terminator: string | null): string {
  return [DTMF_INPUT_PREFIX, digits, terminator].filter(Boolean).join(' ');
}
