// Test scenarios and runs as the console's forms and pages hold them: a scenario's form (rows a person edits, no
// JSON) and the body the API takes from it, and how a run reads (pass rate, whether it is still going, what
// each assertion checks).
import type { Pair } from '../../components/pairs.js';

export type Mode = 'scripted' | 'simulated';
export type Role = 'agent' | 'caller' | 'any';

export interface Assertion {
  kind: string;
  tool?: string;
  arguments?: Record<string, unknown>;
  text?: string;
  role?: Role;
  equals?: unknown;
  key?: string;
  max_ms?: number;
}

export interface Scenario {
  scenario_id: string;
  name: string;
  mode: Mode;
  persona: string;
  goal: string;
  lines: { text: string; pause_ms: number }[];
  max_turns: number | null;
  assertions: Assertion[];
  judge: { rubric: string; pass_threshold: number } | null;
  created_at: string;
}

export interface Verdict {
  kind: string;
  passed: boolean;
  detail: string;
}

export interface Attempt {
  attempt: number;
  status: 'queued' | 'running' | 'passed' | 'failed' | 'error';
  error: string | null;
  session_id: string | null;
  transcript: { role: 'agent' | 'caller'; text: string; latency_ms: number | null }[];
  end_reason: string | null;
  verdicts: Verdict[];
  judge: { score: number; pass_threshold: number; passed: boolean; reasons: string; model: string } | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface ScenarioResult {
  scenario_id: string;
  name: string;
  mode: Mode;
  passed: number;
  finished: number;
  attempts: Attempt[];
}

export interface Run {
  run_id: string;
  agent_id: string;
  status: 'queued' | 'running' | 'completed';
  repetitions: number;
  total: number;
  passed: number;
  failed: number;
  errored: number;
  pass_rate: number | null;
  results: ScenarioResult[];
  created_at: string;
  completed_at: string | null;
}

/** The assertion kinds the form offers, with what a person reads. */
export const ASSERTION_KINDS: [string, string][] = [
  ['tool_called', 'A tool was called (with these argument values)'],
  ['tool_not_called', 'A tool was never called'],
  ['transcript_contains', 'The transcript says'],
  ['transcript_not_contains', 'The transcript never says'],
  ['end_reason', 'The call ended because'],
  ['latency', 'Every reply within a latency budget'],
];

export const END_REASONS: [string, string][] = [
  ['agent_ended_call', 'The agent ended the call'],
  ['caller_ended', 'The caller hung up after the last line'],
];

/** One assertion as the form edits it: every kind's fields as text, only the kind's own sent. */
export interface AssertionDraft {
  kind: string;
  tool: string;
  args: Pair[];
  text: string;
  role: Role;
  equals: string;
  maxMs: string;
}

export interface ScenarioDraft {
  name: string;
  mode: Mode;
  persona: string;
  goal: string;
  lines: { text: string; pauseMs: string }[];
  assertions: AssertionDraft[];
  rubric: string;
  threshold: string;
}

export const newAssertion = (kind = 'transcript_contains'): AssertionDraft => ({
  kind,
  tool: '',
  args: [],
  text: '',
  role: 'agent',
  equals: 'agent_ended_call',
  maxMs: '3000',
});

export const emptyDraft = (): ScenarioDraft => ({
  name: '',
  mode: 'scripted',
  persona: '',
  goal: '',
  lines: [{ text: '', pauseMs: '500' }],
  assertions: [],
  rubric: '',
  threshold: '0.7',
});

/**
 * An argument's expected value as typed: JSON where it reads as a number, true/false, null, an array or an
 * object ("42" is the number 42), else the text itself ("Friday").
 */
export function parseArgValue(raw: string): unknown {
  const text = raw.trim();
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(text) || /^[[{"]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return raw;
    }
  }
  return raw;
}

/** A number typed in a field, or the text itself so the API names the field when it is not one. */
function numberOr(raw: string): number | string {
  const text = raw.trim();
  return text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
}

export function assertionBody(a: AssertionDraft): Assertion {
  switch (a.kind) {
    case 'tool_called': {
      const args = a.args.filter((p) => p.key.trim() !== '');
      return {
        kind: a.kind,
        tool: a.tool.trim(),
        ...(args.length
          ? { arguments: Object.fromEntries(args.map((p) => [p.key.trim(), parseArgValue(p.value)])) }
          : {}),
      };
    }
    case 'tool_not_called':
      return { kind: a.kind, tool: a.tool.trim() };
    case 'transcript_contains':
    case 'transcript_not_contains':
      return { kind: a.kind, text: a.text, role: a.role };
    case 'end_reason':
      return { kind: a.kind, equals: a.equals };
    case 'latency':
      return { kind: a.kind, max_ms: numberOr(a.maxMs) as number };
    default:
      return { kind: a.kind };
  }
}

/** The API's body for a new scenario: a simulated caller's persona and goal, a judge only with a rubric. */
export function scenarioBody(d: ScenarioDraft): Record<string, unknown> {
  return {
    name: d.name.trim(),
    mode: d.mode,
    ...(d.mode === 'simulated' ? { persona: d.persona, goal: d.goal } : {}),
    lines: d.lines.map((l) => ({ text: l.text, pause_ms: numberOr(l.pauseMs) })),
    assertions: d.assertions.map(assertionBody),
    ...(d.rubric.trim() ? { judge: { rubric: d.rubric, pass_threshold: numberOr(d.threshold) } } : {}),
  };
}

/** What an assertion checks, in a sentence. */
export function describeAssertion(a: Assertion): string {
  const who = a.role && a.role !== 'any' ? ` (${a.role})` : '';
  switch (a.kind) {
    case 'tool_called': {
      const args = Object.entries(a.arguments ?? {}).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
      return `${a.tool} is called${args.length ? ` with ${args.join(', ')}` : ''}`;
    }
    case 'tool_not_called':
      return `${a.tool} is never called`;
    case 'transcript_contains':
      return `the transcript says “${a.text}”${who}`;
    case 'transcript_not_contains':
      return `the transcript never says “${a.text}”${who}`;
    case 'end_reason':
      return `the call ends with ${String(a.equals).replace(/_/g, ' ')}`;
    case 'extraction':
      return `extraction ${a.key} is ${JSON.stringify(a.equals)}`;
    case 'latency':
      return `every reply within ${a.max_ms} ms`;
    default:
      return a.kind.replace(/_/g, ' ');
  }
}

/** A pass rate (0..1) as a percentage; "—" before any attempt finished. */
export const passRateText = (rate: number | null): string =>
  rate === null ? '—' : `${Math.round(rate * 100)}%`;

/** Whether a run may still change (its page refreshes itself until it does not). */
export const isRunActive = (run: Pick<Run, 'status'>): boolean => run.status !== 'completed';

/** The run's counts in words: "1 of 2 passed, 1 failed". */
export function runSummary(run: Pick<Run, 'total' | 'passed' | 'failed' | 'errored'>): string {
  const parts = [`${run.passed} of ${run.total} passed`];
  if (run.failed) parts.push(`${run.failed} failed`);
  if (run.errored) parts.push(`${run.errored} could not run`);
  return parts.join(', ');
}

/**
 * An API message in the form's words: "assertions[0].text must be …" reads "Assertion 1 text must be …",
 * "lines[1].pause_ms …" reads "Line 2 pause …", "judge.pass_threshold" the pass threshold.
 */
export function formWords(message: string): string {
  return message
    .replace(/assertions\[(\d+)\]\.max_ms/g, (_, i) => `Assertion ${Number(i) + 1} latency budget`)
    .replace(/assertions\[(\d+)\]\.equals/g, (_, i) => `Assertion ${Number(i) + 1} end reason`)
    .replace(/assertions\[(\d+)\]\.role/g, (_, i) => `Assertion ${Number(i) + 1} said by`)
    .replace(/assertions\[(\d+)\]\.arguments/g, (_, i) => `Assertion ${Number(i) + 1} arguments`)
    .replace(/assertions\[(\d+)\]\.(\w+)/g, (_, i, f) => `Assertion ${Number(i) + 1} ${f}`)
    .replace(/assertions\[(\d+)\]/g, (_, i) => `Assertion ${Number(i) + 1}`)
    .replace(/lines\[(\d+)\]\.pause_ms/g, (_, i) => `Pause before line ${Number(i) + 1}`)
    .replace(/lines\[(\d+)\]\.text/g, (_, i) => `Line ${Number(i) + 1}`)
    .replace(/lines\[(\d+)\]/g, (_, i) => `Line ${Number(i) + 1}`)
    .replace(/judge\.pass_threshold/g, 'Pass threshold')
    .replace(/judge\.rubric/g, 'Rubric');
}
