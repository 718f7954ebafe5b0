import { TEST_PAUSE_MS_DEFAULT, TestAssertion, TestScenarioDto, TestScenarioMode } from '@vap/api';

export interface TestLine {
  text: string;
  pause_ms: number;
}

export interface TestJudge {
  rubric: string;
  pass_threshold: number;
}

/** A row of campaigns.test_scenarios. */
export interface TestScenarioRow {
  id: string;
  partner_id: string;
  name: string;
  mode: TestScenarioMode;
  persona: string;
  goal: string;
  lines: TestLine[];
  max_turns: number | null;
  variables: Record<string, unknown>;
  assertions: TestAssertion[];
  judge: TestJudge | null;
  created_at: Date;
  updated_at: Date;
}

/** What a run keeps of a scenario: the scenario as it was when the run was created. */
export type ScenarioSnapshot = Omit<TestScenarioRow, 'partner_id' | 'created_at' | 'updated_at'>;

export const DEFAULT_PASS_THRESHOLD = 0.7;

export function linesOf(lines: { text: string; pause_ms?: number }[]): TestLine[] {
  return lines.map((l) => ({ text: l.text, pause_ms: l.pause_ms ?? TEST_PAUSE_MS_DEFAULT }));
}

export function judgeOf(
  judge: { rubric: string; pass_threshold?: number } | null | undefined,
): TestJudge | null {
  return judge
    ? { rubric: judge.rubric, pass_threshold: judge.pass_threshold ?? DEFAULT_PASS_THRESHOLD }
    : null;
}

export function toTestScenarioDto(row: TestScenarioRow): TestScenarioDto {
  return {
    scenario_id: row.id,
    name: row.name,
    mode: row.mode,
    persona: row.persona,
    goal: row.goal,
    lines: row.lines,
    max_turns: row.max_turns,
    variables: row.variables,
    assertions: row.assertions,
    judge: row.judge,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function snapshotOf(row: TestScenarioRow): ScenarioSnapshot {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    persona: row.persona,
    goal: row.goal,
    lines: row.lines,
    max_turns: row.max_turns,
    variables: row.variables,
    assertions: row.assertions,
    judge: row.judge,
  };
}
