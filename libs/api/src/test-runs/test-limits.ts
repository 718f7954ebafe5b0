/** Bounds of test scenarios and runs: every one is per account or per request, checked before anything is stored. */
export const TEST_SCENARIOS_PER_ACCOUNT = 200;
export const TEST_SCENARIO_NAME_MAX = 120;
export const TEST_PERSONA_MAX = 2000;
export const TEST_GOAL_MAX = 1000;
export const TEST_LINES_MAX = 20;
export const TEST_LINE_TEXT_MAX = 300;
/** Longest scripted pause before a caller's line, ms. */
export const TEST_PAUSE_MS_MAX = 10_000;
export const TEST_PAUSE_MS_DEFAULT = 500;
export const TEST_MAX_TURNS_MAX = 20;
export const TEST_ASSERTIONS_MAX = 30;
export const TEST_ASSERTION_TEXT_MAX = 500;
export const TEST_RUBRIC_MAX = 2000;
/** A scenario's call variables: at most this many keys, and this many bytes as JSON. */
export const TEST_VARIABLES_MAX_KEYS = 50;
export const TEST_VARIABLES_MAX_BYTES = 4096;
/** Scenarios one run plays, and how often each. */
export const TEST_RUN_SCENARIOS_MAX = 10;
export const TEST_RUN_REPETITIONS_MAX = 5;
/** Runs of an account queued or running at once. */
export const TEST_RUNS_ACTIVE_PER_ACCOUNT = 3;

export const TEST_SCENARIO_MODES = ['scripted', 'simulated'] as const;
export type TestScenarioMode = (typeof TEST_SCENARIO_MODES)[number];

export const TEST_RUN_STATUSES = ['queued', 'running', 'completed'] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];

/** An attempt: waiting, under way, its assertions all held (passed) or not (failed), or it could not run (error). */
export const TEST_ATTEMPT_STATUSES = ['queued', 'running', 'passed', 'failed', 'error'] as const;
export type TestAttemptStatus = (typeof TEST_ATTEMPT_STATUSES)[number];

export const TEST_SCENARIO_ID_EXAMPLE = 'tsc_2f1c0a8e-3b7d-4c55-9a0e-6f1d2b3c4d5e';
export const TEST_RUN_ID_EXAMPLE = 'trun_7a9e1b20-5c3d-4e8f-a1b2-c3d4e5f60718';
