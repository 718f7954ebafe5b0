import {
  TestAttemptDto,
  TestAttemptStatus,
  TestJudgeVerdictDto,
  TestRunDto,
  TestRunStatus,
  TestToolCallDto,
  TestTranscriptLineDto,
  TestVerdictDto,
} from '@vap/api';
import type { ScenarioSnapshot } from '../test-scenarios/test-scenario-row';

/** A row of campaigns.test_runs. */
export interface TestRunRow {
  id: string;
  partner_id: string;
  agent_id: string;
  status: TestRunStatus;
  repetitions: number;
  scenarios: ScenarioSnapshot[];
  created_at: Date;
  completed_at: Date | null;
}

/** What an attempt found, kept as one JSON document on its row. */
export interface AttemptResult {
  transcript: TestTranscriptLineDto[];
  tool_calls: TestToolCallDto[];
  end_reason: string | null;
  recording_url: string | null;
  verdicts: TestVerdictDto[];
  judge: TestJudgeVerdictDto | null;
}

/** A row of campaigns.test_attempts. */
export interface TestAttemptRow {
  id: string;
  run_id: string;
  partner_id: string;
  scenario_index: number;
  attempt: number;
  status: TestAttemptStatus;
  tries: number;
  session_id: string | null;
  result: AttemptResult | null;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const FINISHED: TestAttemptStatus[] = ['passed', 'failed', 'error'];

function toAttemptDto(row: TestAttemptRow): TestAttemptDto {
  return {
    attempt: row.attempt,
    status: row.status,
    session_id: row.session_id,
    transcript: row.result?.transcript ?? [],
    tool_calls: row.result?.tool_calls ?? [],
    end_reason: row.result?.end_reason ?? null,
    recording_url: row.result?.recording_url ?? null,
    verdicts: row.result?.verdicts ?? [],
    judge: row.result?.judge ?? null,
    error: row.error,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

export function toTestRunDto(run: TestRunRow, attempts: TestAttemptRow[]): TestRunDto {
  const count = (status: TestAttemptStatus) => attempts.filter((a) => a.status === status).length;
  const passed = count('passed');
  const finished = attempts.filter((a) => FINISHED.includes(a.status)).length;
  return {
    run_id: run.id,
    agent_id: run.agent_id,
    status: run.status,
    repetitions: run.repetitions,
    total: attempts.length,
    passed,
    failed: count('failed'),
    errored: count('error'),
    pass_rate: finished ? Math.round((passed / finished) * 100) / 100 : null,
    results: run.scenarios.map((scenario, index) => {
      const mine = attempts.filter((a) => a.scenario_index === index).sort((a, b) => a.attempt - b.attempt);
      return {
        scenario_id: scenario.id,
        name: scenario.name,
        mode: scenario.mode,
        passed: mine.filter((a) => a.status === 'passed').length,
        finished: mine.filter((a) => FINISHED.includes(a.status)).length,
        attempts: mine.map(toAttemptDto),
      };
    }),
    created_at: run.created_at.toISOString(),
    completed_at: iso(run.completed_at),
  };
}
