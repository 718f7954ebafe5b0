import {
  TEST_ASSERTIONS_MAX,
  TEST_LINES_MAX,
  TEST_RUN_REPETITIONS_MAX,
  TEST_RUN_SCENARIOS_MAX,
  TEST_RUNS_ACTIVE_PER_ACCOUNT,
  TEST_SCENARIOS_PER_ACCOUNT,
} from '@vap/api';

/** OpenAPI texts of the test routes. */
export const SCENARIO_DESCRIPTION = `
A test scenario is a caller and what must hold after its call. \`mode\`: **scripted** (the caller says
\`lines\` in order, each after \`pause_ms\` of quiet once the agent has finished its turn) or **simulated** (a
chat model plays the caller from \`persona\` and \`goal\`, up to \`max_turns\` lines; without a configured model
the offline engine says \`lines\` in order). At most ${TEST_SCENARIOS_PER_ACCOUNT} scenarios per account,
${TEST_LINES_MAX} lines and ${TEST_ASSERTIONS_MAX} assertions per scenario.

Assertions (\`kind\` and its fields): \`tool_called\` {tool, arguments?, arguments_schema?} (one call of the
tool whose arguments have those values and satisfy the schema), \`tool_not_called\` {tool},
\`transcript_contains\` / \`transcript_not_contains\` {text, role?: agent|caller|any} (case and punctuation
ignored), \`end_reason\` {equals} (the session's end_reason, e.g. \`agent_ended_call\`, \`caller_ended\`),
\`extraction\` {key, equals} (the extracted value, else the call variable), \`latency\` {max_ms} (every agent
reply's voice-to-voice latency). \`judge\` {rubric, pass_threshold}: a model scores the transcript against
the rubric from 0 to 1. A wrong field is 400 VALIDATION_ERROR naming it (\`assertions[2].tool\`).
`;

export const RUN_DESCRIPTION = `
Queues a run: each scenario is played against the agent \`repetitions\` times (1 to ${TEST_RUN_REPETITIONS_MAX},
to catch flaky behaviour), at most ${TEST_RUN_SCENARIOS_MAX} scenarios. Each attempt is a browser session of the
agent (see GET /browser-sessions/{id}) on the same voice pipeline as real calls: the test caller speaks with the
platform's offline synthesizer and hears the agent through the offline recognition. Test sessions are billed
per second at the test rate (the calls service's TEST_CALL_PRICE_PER_MINUTE_PAISE, INR 1.00 a minute by
default) and take slots of the account's concurrency limit; at most
two attempts of an account talk at once (TEST_RUN_ACCOUNT_CONCURRENCY), and at most
${TEST_RUNS_ACTIVE_PER_ACCOUNT} runs of an account are queued or running (more: 429 LIMIT_REACHED).

Answers 202 with the run \`queued\`; poll GET /test-runs/{id} until \`completed\`. An attempt \`passed\` when
every assertion held and the judge's score reached its threshold; \`failed\` otherwise (its verdicts say which);
\`error\` when the call could not be run (balance, agent, voice service).
`;
