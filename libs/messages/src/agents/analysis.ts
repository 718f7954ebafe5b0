/**
 * Post-call analysis, as an agent configures it (analysis_config): a summary of every answered call, and, when the
 * agent has a rubric, a success evaluation against it (a score out of 10 and whether it reaches the threshold).
 * The result is stored on the session and carried by session.completed.
 */

export const ANALYSIS_LIMITS = {
  summary_instructions: { maxLength: 2000 },
  success_rubric: { maxLength: 4000 },
  success_threshold: { min: 1, max: 10 },
} as const;

export interface AnalysisConfig {
  /** A short summary of every answered call. */
  summary_enabled: boolean;
  /** What the summary should say or leave out, added to the platform's own instructions; null: none. */
  summary_instructions: string | null;
  /** What a successful call achieves, in the partner's words; null: no success evaluation. */
  success_rubric: string | null;
  /** The score out of 10 a call needs to be judged a success. */
  success_threshold: number;
}

export const AnalysisDefaults: AnalysisConfig = {
  summary_enabled: true,
  summary_instructions: null,
  success_rubric: null,
  success_threshold: 7,
};

/** The analysis settings as a call's agent snapshot carries them: the same settings, camelCase. */
export interface AnalysisSnapshot {
  summaryEnabled: boolean;
  summaryInstructions: string | null;
  successRubric: string | null;
  successThreshold: number;
}

export function analysisSnapshotOf(config: AnalysisConfig): AnalysisSnapshot {
  return {
    summaryEnabled: config.summary_enabled,
    summaryInstructions: config.summary_instructions,
    successRubric: config.success_rubric,
    successThreshold: config.success_threshold,
  };
}

export const ANALYSIS_STATUSES = ['success', 'failed', 'skipped'] as const;
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];

/** The success evaluation of a call against its agent's rubric. */
export interface SuccessEvaluation {
  /** score >= threshold. */
  passed: boolean;
  /** 0..10, as the judge gave it. */
  score: number;
  /** The agent's success_threshold when the call started. */
  threshold: number;
  /** The judge's reasons, in a sentence or a few. */
  reasons: string;
}

/** A session's post-call analysis (session.analysis, session.completed's analysis), shaped as extraction is. */
export interface CallAnalysis {
  status: AnalysisStatus;
  model: string | null;
  analyzedAt: string | null;
  latencyMs: number | null;
  attempts: number;
  /** null when the summary is off, or the analysis failed or was skipped. */
  summary: string | null;
  /** null when the agent has no rubric, or the analysis failed or was skipped. */
  success: SuccessEvaluation | null;
  /** Why it failed or was skipped; null on success. */
  error: string | null;
}
