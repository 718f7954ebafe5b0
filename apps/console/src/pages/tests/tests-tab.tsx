// An agent's Tests tab: the account's test scenarios (a form to write one: caller lines with their pauses,
// assertions and the judge), "Run tests" against this agent, its runs as a pass-rate history, and a run's page with
// each scenario's attempts, every assertion's verdict, the judge's score and a link to the attempt's session.
import { useEffect, useState } from 'preact/hooks';
import { allPages, ApiError, v2 } from '../../api.js';
import { formatDate, words } from '../../components/format.js';
import { FormErrorNotice, PairList, Select, TextArea, TextInput } from '../../components/inputs.js';
import { ErrorNotice, LoadState, runAction, useLoad } from '../../components/ui.js';
import { linkProps, navigate } from '../../router.js';
import { can, Session } from '../../session.js';
import {
  ASSERTION_KINDS,
  AssertionDraft,
  describeAssertion,
  emptyDraft,
  END_REASONS,
  formWords,
  isRunActive,
  newAssertion,
  passRateText,
  Run,
  runSummary,
  Scenario,
  scenarioBody,
  ScenarioDraft,
} from './model.js';

/** How often a run still under way is read again. */
const REFRESH_MS = 2000;
const MAX_LINES = 20;
const MAX_ASSERTIONS = 30;
const MAX_RUN_SCENARIOS = 10;

const loadScenarios = () =>
  allPages(
    (cursor) =>
      v2
        .get<{ scenarios: Scenario[]; next_cursor: string | null }>('/test-scenarios', { cursor, limit: 100 })
        .then((p) => ({ items: p.scenarios, next: p.next_cursor })),
    200,
  );

export function AgentTestsTab({
  session,
  agentId,
  runId,
}: {
  session: Session;
  agentId: string;
  runId?: string;
}) {
  if (runId) return <RunPanel agentId={agentId} runId={runId} />;
  return <TestsOverview session={session} agentId={agentId} />;
}

function TestsOverview({ session, agentId }: { session: Session; agentId: string }) {
  const scenarios = useLoad(loadScenarios, []);
  const runs = useLoad(
    () => v2.get<{ runs: Run[]; next_cursor: string | null }>('/test-runs', { agent_id: agentId, limit: 25 }),
    [agentId],
  );
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const anyActive = (runs.data?.runs ?? []).some(isRunActive);
  useEffect(() => {
    if (!anyActive) return;
    const timer = setTimeout(runs.reload, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [anyActive, runs.data]);
  const remove = (s: Scenario) => {
    if (!confirm(`Delete the scenario "${s.name}"? Runs that played it keep their results.`)) return;
    void runAction(
      setError,
      () => v2.del(`/test-scenarios/${encodeURIComponent(s.scenario_id)}`),
      scenarios.reload,
    );
  };
  const writable = can.write(session);
  return (
    <>
      <section aria-labelledby="test-runs-heading">
        <h3 id="test-runs-heading">Test runs</h3>
        <LoadState loaded={runs}>
          {(page) => (
            <table>
              <caption class="sr-only">This agent's test runs, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Status</th>
                  <th scope="col">Pass rate</th>
                  <th scope="col">Attempts</th>
                </tr>
              </thead>
              <tbody>
                {page.runs.map((r) => (
                  <tr key={r.run_id}>
                    <td>
                      <a {...linkProps(`/agents/${agentId}/tests/${r.run_id}`)}>{formatDate(r.created_at)}</a>
                    </td>
                    <td>
                      <span class="badge">{r.status}</span>
                    </td>
                    <td data-testid="run-pass-rate">{passRateText(r.pass_rate)}</td>
                    <td>{runSummary(r)}</td>
                  </tr>
                ))}
                {page.runs.length === 0 && (
                  <tr>
                    <td colSpan={4} class="muted">
                      No runs yet: write a scenario below, then run it.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          )}
        </LoadState>
      </section>
      {writable && scenarios.data && scenarios.data.length > 0 && (
        <RunTestsForm agentId={agentId} scenarios={scenarios.data} />
      )}
      <section aria-labelledby="test-scenarios-heading">
        <div class="row">
          <h3 id="test-scenarios-heading">Scenarios</h3>
          {writable && !creating && (
            <button type="button" onClick={() => setCreating(true)}>
              New scenario
            </button>
          )}
        </div>
        <p class="muted">Scenarios belong to the account: any agent can be run against them.</p>
        <ErrorNotice error={error} />
        <LoadState loaded={scenarios}>
          {(list) => (
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Caller</th>
                  <th scope="col">Assertions</th>
                  <th scope="col">Judge</th>
                  {writable && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {list.map((s) => (
                  <tr key={s.scenario_id}>
                    <td>{s.name}</td>
                    <td>{s.mode}</td>
                    <td title={s.assertions.map(describeAssertion).join('; ')}>{s.assertions.length}</td>
                    <td>{s.judge ? `pass at ${s.judge.pass_threshold}` : '—'}</td>
                    {writable && (
                      <td>
                        <button
                          type="button"
                          class="secondary"
                          aria-label={`Delete ${s.name}`}
                          onClick={() => remove(s)}
                        >
                          Delete
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
                {list.length === 0 && (
                  <tr>
                    <td colSpan={writable ? 5 : 4} class="muted">
                      No scenarios yet.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          )}
        </LoadState>
        {creating && (
          <ScenarioForm
            onCancel={() => setCreating(false)}
            onCreated={() => {
              setCreating(false);
              scenarios.reload();
            }}
          />
        )}
      </section>
    </>
  );
}

function RunTestsForm({ agentId, scenarios }: { agentId: string; scenarios: Scenario[] }) {
  const [picked, setPicked] = useState<string[]>([]);
  const [repetitions, setRepetitions] = useState('1');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = (id: string, on: boolean) =>
    setPicked((p) => (on ? [...p.filter((x) => x !== id), id] : p.filter((x) => x !== id)));
  const submit = async (e: Event) => {
    e.preventDefault();
    if (picked.length === 0) {
      setError(new ApiError(400, 'VALIDATION_ERROR', 'Pick at least one scenario to run.'));
      return;
    }
    setBusy(true);
    let created: Run | null = null;
    await runAction(
      setError,
      async () => {
        created = await v2.post<Run>('/test-runs', {
          agent_id: agentId,
          scenario_ids: picked,
          repetitions: Number(repetitions),
        });
      },
      () => undefined,
    );
    setBusy(false);
    if (created) navigate(`/agents/${agentId}/tests/${(created as Run).run_id}`);
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="run-tests-heading">
      <h3 id="run-tests-heading">Run tests</h3>
      <fieldset class="group">
        <legend>Scenarios to run (up to {MAX_RUN_SCENARIOS})</legend>
        {scenarios.map((s) => (
          <div class="field check" key={s.scenario_id}>
            <input
              type="checkbox"
              id={`run-${s.scenario_id}`}
              checked={picked.includes(s.scenario_id)}
              disabled={!picked.includes(s.scenario_id) && picked.length >= MAX_RUN_SCENARIOS}
              onChange={(e) => toggle(s.scenario_id, e.currentTarget.checked)}
            />
            <label for={`run-${s.scenario_id}`}>{s.name}</label>
          </div>
        ))}
      </fieldset>
      <Select
        label="Repetitions"
        name="repetitions"
        error={error}
        hint="How often each scenario is played: a flaky agent shows as a pass rate under 100%."
        value={repetitions}
        onChange={setRepetitions}
        options={['1', '2', '3', '4', '5'].map((n) => [n, n])}
      />
      <FormErrorNotice error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Starting…' : 'Run tests'}
      </button>
    </form>
  );
}

function ScenarioForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: () => void }) {
  const [draft, setDraft] = useState<ScenarioDraft>(emptyDraft);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (part: Partial<ScenarioDraft>) => setDraft((d) => ({ ...d, ...part }));
  const setLine = (i: number, part: Partial<ScenarioDraft['lines'][number]>) =>
    set({ lines: draft.lines.map((l, j) => (j === i ? { ...l, ...part } : l)) });
  const setAssertion = (i: number, part: Partial<AssertionDraft>) =>
    set({ assertions: draft.assertions.map((a, j) => (j === i ? { ...a, ...part } : a)) });
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    await runAction(
      (e) =>
        setError(
          e &&
            new ApiError(
              e.status,
              e.code,
              formWords(e.message),
              e.details.map((d) => ({ field: d.field, message: formWords(d.message) })),
            ),
        ),
      () => v2.post('/test-scenarios', scenarioBody(draft)),
      onCreated,
    );
    setBusy(false);
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-scenario-heading">
      <h3 id="new-scenario-heading">New scenario</h3>
      <TextInput
        label="Name"
        name="name"
        error={error}
        required
        value={draft.name}
        onChange={(name) => set({ name })}
      />
      <Select
        label="Caller"
        name="mode"
        error={error}
        value={draft.mode}
        onChange={(mode) => set({ mode: mode as ScenarioDraft['mode'] })}
        options={[
          ['scripted', 'Scripted: says the lines below in order'],
          ['simulated', 'Simulated: a model plays the caller from a persona and goal'],
        ]}
      />
      {draft.mode === 'simulated' && (
        <>
          <TextArea
            label="Persona"
            name="persona"
            error={error}
            hint="Who the caller is, e.g. Asha, a regular customer in a hurry."
            value={draft.persona}
            onChange={(persona) => set({ persona })}
          />
          <TextArea
            label="Goal"
            name="goal"
            error={error}
            hint="What the caller wants from the call."
            value={draft.goal}
            onChange={(goal) => set({ goal })}
          />
        </>
      )}
      <fieldset class="group">
        <legend>{draft.mode === 'simulated' ? 'Fallback lines (without a model)' : "Caller's lines"}</legend>
        <small class="muted block">
          Said in order; the pause is the quiet the caller leaves after the agent's turn before the line.
        </small>
        {draft.lines.map((line, i) => (
          <div class="row list-row" key={i}>
            <TextInput
              label={`Line ${i + 1}`}
              name={`lines[${i}].text`}
              error={error}
              value={line.text}
              onChange={(text) => setLine(i, { text })}
            />
            <TextInput
              label={`Pause before line ${i + 1} (ms)`}
              name={`lines[${i}].pause_ms`}
              type="number"
              error={error}
              value={line.pauseMs}
              onChange={(pauseMs) => setLine(i, { pauseMs })}
            />
            {draft.lines.length > 1 && (
              <button
                type="button"
                class="secondary"
                aria-label={`Remove line ${i + 1}`}
                onClick={() => set({ lines: draft.lines.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            )}
          </div>
        ))}
        {draft.lines.length < MAX_LINES && (
          <button
            type="button"
            class="secondary"
            onClick={() => set({ lines: [...draft.lines, { text: '', pauseMs: '500' }] })}
          >
            Add a line
          </button>
        )}
      </fieldset>
      <fieldset class="group">
        <legend>Assertions</legend>
        <small class="muted block">What must hold after the call for the attempt to pass.</small>
        {draft.assertions.map((a, i) => (
          <AssertionRow
            key={i}
            index={i}
            draft={a}
            error={error}
            onChange={(part) => setAssertion(i, part)}
            onRemove={() => set({ assertions: draft.assertions.filter((_, j) => j !== i) })}
          />
        ))}
        {draft.assertions.length < MAX_ASSERTIONS && (
          <button
            type="button"
            class="secondary"
            onClick={() => set({ assertions: [...draft.assertions, newAssertion()] })}
          >
            Add an assertion
          </button>
        )}
      </fieldset>
      <fieldset class="group">
        <legend>Judge (optional)</legend>
        <TextArea
          label="Rubric"
          name="judge.rubric"
          error={error}
          hint="What a good call does, scored from 0 to 1 by the post-call analysis. Leave empty for no judge."
          value={draft.rubric}
          onChange={(rubric) => set({ rubric })}
        />
        {draft.rubric.trim() !== '' && (
          <TextInput
            label="Pass threshold (0 to 1)"
            name="judge.pass_threshold"
            hint="A decimal such as 0.7: the judge's score must reach it."
            error={error}
            value={draft.threshold}
            onChange={(threshold) => set({ threshold })}
          />
        )}
      </fieldset>
      <FormErrorNotice error={error} />
      <div class="row">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Create scenario'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function AssertionRow({
  index,
  draft,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  draft: AssertionDraft;
  error: ApiError | null;
  onChange: (part: Partial<AssertionDraft>) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const at = `assertions[${index}]`;
  return (
    <div class="card">
      <Select
        label={`Assertion ${n}`}
        name={`${at}.kind`}
        error={error}
        value={draft.kind}
        onChange={(kind) => onChange({ kind })}
        options={ASSERTION_KINDS}
      />
      {(draft.kind === 'tool_called' || draft.kind === 'tool_not_called') && (
        <TextInput
          label={`Assertion ${n} tool`}
          name={`${at}.tool`}
          error={error}
          hint="The tool's name, e.g. end_call or one of the agent's custom functions."
          value={draft.tool}
          onChange={(tool) => onChange({ tool })}
        />
      )}
      {draft.kind === 'tool_called' && (
        <PairList
          legend={`Assertion ${n}: expected argument values`}
          keyLabel={`Assertion ${n} argument`}
          valueLabel={`Assertion ${n} expected value`}
          name={`${at}.arguments`}
          error={error}
          hint="Numbers, true/false and JSON are read as such (42 is the number 42); anything else as text."
          value={draft.args}
          onChange={(args) => onChange({ args })}
          addLabel="Add an argument"
        />
      )}
      {(draft.kind === 'transcript_contains' || draft.kind === 'transcript_not_contains') && (
        <>
          <TextInput
            label={`Assertion ${n} text`}
            name={`${at}.text`}
            error={error}
            hint="Case, spacing and punctuation are ignored."
            value={draft.text}
            onChange={(text) => onChange({ text })}
          />
          <Select
            label={`Assertion ${n} said by`}
            name={`${at}.role`}
            error={error}
            value={draft.role}
            onChange={(role) => onChange({ role: role as AssertionDraft['role'] })}
            options={[
              ['agent', 'The agent'],
              ['caller', 'The caller'],
              ['any', 'Either'],
            ]}
          />
        </>
      )}
      {draft.kind === 'end_reason' && (
        <Select
          label={`Assertion ${n} end reason`}
          name={`${at}.equals`}
          error={error}
          value={draft.equals}
          onChange={(equals) => onChange({ equals })}
          options={END_REASONS}
        />
      )}
      {draft.kind === 'latency' && (
        <TextInput
          label={`Assertion ${n} latency budget (ms)`}
          name={`${at}.max_ms`}
          type="number"
          error={error}
          value={draft.maxMs}
          onChange={(maxMs) => onChange({ maxMs })}
        />
      )}
      <button type="button" class="secondary" aria-label={`Remove assertion ${n}`} onClick={onRemove}>
        Remove
      </button>
    </div>
  );
}

function RunPanel({ agentId, runId }: { agentId: string; runId: string }) {
  const run = useLoad(() => v2.get<Run>(`/test-runs/${encodeURIComponent(runId)}`), [runId]);
  const active = run.data ? isRunActive(run.data) : false;
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(run.reload, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [active, run.data]);
  return (
    <>
      <p>
        <a {...linkProps(`/agents/${agentId}/tests`)}>All test runs</a>
      </p>
      <LoadState loaded={run}>
        {(r) => (
          <section aria-labelledby="run-heading">
            <h3 id="run-heading">Test run of {formatDate(r.created_at)}</h3>
            <p role="status">
              <span class="badge" data-testid="run-status">
                {r.status}
              </span>{' '}
              Pass rate <strong data-testid="run-pass-rate">{passRateText(r.pass_rate)}</strong>:{' '}
              {runSummary(r)}
              {active ? ' (updating until it is done)' : ''}
            </p>
            {r.results.map((s) => (
              <section key={s.scenario_id} class="card" aria-label={`Scenario ${s.name}`}>
                <h4>
                  {s.name}{' '}
                  <span class="muted">
                    ({s.mode}, {s.passed} of {s.finished} passed)
                  </span>
                </h4>
                {s.attempts.map((a) => (
                  <AttemptView key={a.attempt} attempt={a} showNumber={s.attempts.length > 1} />
                ))}
              </section>
            ))}
          </section>
        )}
      </LoadState>
    </>
  );
}

function AttemptView({
  attempt: a,
  showNumber,
}: {
  attempt: Run['results'][number]['attempts'][number];
  showNumber: boolean;
}) {
  return (
    <div class="try-panel" data-testid="attempt">
      <p>
        {showNumber ? `Attempt ${a.attempt}: ` : ''}
        <span class="badge" data-testid="attempt-status">
          {a.status}
        </span>
        {a.end_reason && <span class="muted"> · ended: {words(a.end_reason)}</span>}
        {a.session_id && (
          <>
            {' '}
            · <a {...linkProps(`/calls/web/${a.session_id}`)}>Open the session</a>
          </>
        )}
      </p>
      {a.error && <p class="error">Could not run: {a.error}</p>}
      {a.verdicts.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Assertion</th>
              <th scope="col">Verdict</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {a.verdicts.map((v, i) => (
              <tr key={i} data-testid="verdict">
                <td>{words(v.kind)}</td>
                <td>
                  <strong class={v.passed ? 'ok' : 'error'}>{v.passed ? 'Passed' : 'Failed'}</strong>
                </td>
                <td>{v.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {a.judge && (
        <p data-testid="judge">
          Judge: score {a.judge.score.toFixed(2)} (passes at {a.judge.pass_threshold}),{' '}
          <strong>{a.judge.passed ? 'passed' : 'failed'}</strong>. {a.judge.reasons}
        </p>
      )}
      {a.transcript.length > 0 && (
        <details>
          <summary>Transcript</summary>
          <ul class="timeline">
            {a.transcript.map((t, i) => (
              <li key={i} class={t.role === 'agent' ? 'bot' : 'user'}>
                <span class="meta">
                  {t.role}
                  {t.latency_ms !== null ? ` · ${t.latency_ms} ms` : ''}
                </span>{' '}
                {t.text}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
