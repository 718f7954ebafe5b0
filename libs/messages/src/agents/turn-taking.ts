/**
 * How the agent takes turns with the caller: when the caller's turn ends (endpointing) and whether short
 * acknowledgements during the agent's speech interrupt it. The voice service applies it; the agents service
 * stores it and the API exposes it on the agent as `turn_taking`.
 */
export const TURN_TAKING_MODES = ['fast', 'balanced', 'patient'] as const;
export type TurnTakingMode = (typeof TURN_TAKING_MODES)[number];

/**
 * Silence, in ms of the caller's audio, that ends the caller's turn. `min` when what they said so far is
 * complete (a finished sentence or question), `max` when it is plainly not (a trailing "and", "um", a number
 * still being read out), and a third of the way between them when the words are not known yet.
 */
export const TURN_TAKING_PRESETS: Record<TurnTakingMode, { min_silence_ms: number; max_silence_ms: number }> =
  {
    fast: { min_silence_ms: 150, max_silence_ms: 900 },
    balanced: { min_silence_ms: 250, max_silence_ms: 1500 },
    patient: { min_silence_ms: 500, max_silence_ms: 2500 },
  };

/** Bounds of the explicit overrides, ms. */
export const TURN_TAKING_LIMITS = {
  min_silence_ms: { min: 100, max: 3000 },
  max_silence_ms: { min: 200, max: 5000 },
} as const;

/** An agent's turn-taking, as the API answers it and the agents service stores it. */
export interface TurnTakingConfig {
  mode: TurnTakingMode;
  /** Overrides the mode's minimum silence; null keeps the mode's. */
  min_silence_ms: number | null;
  /** Overrides the mode's maximum silence; null keeps the mode's. */
  max_silence_ms: number | null;
  /** Acknowledgements ("yeah", "okay", "mm-hmm") during the agent's speech neither interrupt it nor start a turn. */
  ignore_backchannels: boolean;
}

export const TurnTakingDefaults: TurnTakingConfig = {
  mode: 'balanced',
  min_silence_ms: null,
  max_silence_ms: null,
  ignore_backchannels: true,
};

/** The agent's turn-taking as a call's agent snapshot carries it: the same settings, camelCase. */
export interface TurnTakingSnapshot {
  mode: TurnTakingMode;
  minSilenceMs: number | null;
  maxSilenceMs: number | null;
  ignoreBackchannels: boolean;
}

export function turnTakingSnapshotOf(config: TurnTakingConfig): TurnTakingSnapshot {
  return {
    mode: config.mode,
    minSilenceMs: config.min_silence_ms,
    maxSilenceMs: config.max_silence_ms,
    ignoreBackchannels: config.ignore_backchannels,
  };
}

/** TurnTakingDefaults as the snapshot spells them. */
export const TurnTakingSnapshotDefaults: TurnTakingSnapshot = turnTakingSnapshotOf(TurnTakingDefaults);

/** The silence bounds in force for a call's turn-taking (the mode's, with the overrides applied). */
export function endpointBoundsOf(config: TurnTakingSnapshot | null | undefined): {
  minSilenceMs: number;
  maxSilenceMs: number;
} {
  const c = config ?? TurnTakingSnapshotDefaults;
  const preset = TURN_TAKING_PRESETS[c.mode] ?? TURN_TAKING_PRESETS.balanced;
  const minSilenceMs = c.minSilenceMs ?? preset.min_silence_ms;
  const maxSilenceMs = Math.max(minSilenceMs, c.maxSilenceMs ?? preset.max_silence_ms);
  return { minSilenceMs, maxSilenceMs };
}
