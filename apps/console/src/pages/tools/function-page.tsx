// One custom function: its form (create or edit; the parameters schema checked as it is typed), the signing
// secret shown once, a test with sample arguments showing the request sent and the answer received, the
// agents it is attached to, and its latest requests from the integration log.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../../api.js';
import { FormErrorNotice, PairList, Select, TextArea, TextInput, Checkbox } from '../../components/inputs.js';
import {
  FailureHelp,
  IntegrationLogEntry,
  IntegrationLogEntryView,
  IntegrationLogSummary,
  IntegrationLogTable,
  OutcomeBadge,
} from '../../components/integration-log.js';
import { loadAgentNames, useNames } from '../../components/names.js';
import { SecretOnce } from '../../components/secret.js';
import { ErrorNotice, LoadState, runAction, useId, useLoad } from '../../components/ui.js';
import { linkProps, navigate } from '../../router.js';
import { can, Session } from '../../session.js';
import { ParametersEditor } from './schema-editor.js';
import { parametersState, ParametersState, parametersValue, PropertyRow, schemaToRows } from './schema.js';
import { formatDate } from '../../components/format.js';
import { fromPairs, Pair, toPairs } from '../../components/pairs.js';

export interface CustomFunction {
  id: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  url: string;
  method: string;
  headers: Record<string, string>;
  timeout_ms: number;
  speech: { on_start: string | null; on_delay: string | null; delay_ms: number; on_failure: string | null };
  response_variables: Record<string, string>;
  async: boolean;
  attached_agents: { id: string; name: string }[];
  created_at: string;
  updated_at: string;
}

const METHODS: [string, string][] = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, m]);

interface FunctionDraft {
  name: string;
  description: string;
  url: string;
  method: string;
  timeout_ms: string;
  async: boolean;
  params: ParametersState;
  replaceHeaders: boolean;
  headers: Pair[];
  on_start: string;
  on_delay: string;
  delay_ms: string;
  on_failure: string;
  response_variables: Pair[];
}

function toDraft(fn: CustomFunction | null): FunctionDraft {
  return {
    name: fn?.name ?? '',
    description: fn?.description ?? '',
    url: fn?.url ?? '',
    method: fn?.method ?? 'POST',
    timeout_ms: String(fn?.timeout_ms ?? 10000),
    async: fn?.async ?? false,
    params: parametersState(fn?.parameters ?? null),
    replaceHeaders: !fn,
    headers: [],
    on_start: fn?.speech.on_start ?? '',
    on_delay: fn?.speech.on_delay ?? '',
    delay_ms: String(fn?.speech.delay_ms ?? 2000),
    on_failure: fn?.speech.on_failure ?? '',
    response_variables: toPairs(fn?.response_variables),
  };
}

/** The request body (changed fields only, when editing) or the problems found before sending. */
function toBody(
  d: FunctionDraft,
  fn: CustomFunction | null,
): { body: Record<string, unknown>; error: ApiError | null } {
  const problems: { field: string; message: string }[] = [];
  const int = (field: string, raw: string, min: number, max: number, label: string) => {
    const n = Number(raw.trim());
    if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max)
      problems.push({ field, message: `${label} must be a whole number from ${min} to ${max}` });
    return n;
  };
  const { schema, problem } = parametersValue(d.params);
  if (problem) problems.push({ field: 'parameters', message: problem });
  const text = (s: string) => (s.trim() === '' ? null : s.trim());
  const all: Record<string, unknown> = {
    name: d.name.trim(),
    description: d.description.trim(),
    url: d.url.trim(),
    method: d.method,
    parameters: schema,
    timeout_ms: int('timeout_ms', d.timeout_ms, 1000, 120000, 'The timeout'),
    async: d.async,
    speech: {
      on_start: text(d.on_start),
      on_delay: text(d.on_delay),
      delay_ms: int('speech.delay_ms', d.delay_ms, 500, 60000, 'The wait before the delay message'),
      on_failure: text(d.on_failure),
    },
    response_variables: Object.keys(fromPairs(d.response_variables)).length
      ? fromPairs(d.response_variables)
      : null,
  };
  if (d.replaceHeaders) {
    const headers = fromPairs(d.headers);
    all.headers = Object.keys(headers).length ? headers : null;
  }
  const error = problems.length
    ? new ApiError(400, 'VALIDATION_ERROR', 'Some fields need attention before saving', problems)
    : null;
  if (!fn) return { body: all, error };
  const before: Record<string, unknown> = {
    name: fn.name,
    description: fn.description,
    url: fn.url,
    method: fn.method,
    parameters: fn.parameters,
    timeout_ms: fn.timeout_ms,
    async: fn.async,
    speech: fn.speech,
    response_variables: Object.keys(fn.response_variables).length ? fn.response_variables : null,
  };
  const body = Object.fromEntries(
    Object.entries(all).filter(
      ([k, v]) => k === 'headers' || JSON.stringify(v) !== JSON.stringify(before[k]),
    ),
  );
  return { body, error };
}

/** A secret just issued on creation, kept for the function's page the console opens next. */
const issuedSecrets = new Map<string, string>();

function FunctionForm({
  fn,
  write,
  onSaved,
}: {
  fn: CustomFunction | null;
  write: boolean;
  onSaved: (fn: CustomFunction) => void;
}) {
  const [draft, setDraft] = useState<FunctionDraft>(() => toDraft(fn));
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');
  const set = (patch: Partial<FunctionDraft>) => {
    setSaved('');
    setDraft((d) => ({ ...d, ...patch }));
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const { body, error: local } = toBody(draft, fn);
    if (local) return setError(local);
    setBusy(true);
    setError(null);
    try {
      if (!fn) {
        const created = await v2.post<CustomFunction & { signing_secret: string }>('/custom-functions', body);
        issuedSecrets.set(created.id, created.signing_secret);
        navigate(`/tools/functions/${encodeURIComponent(created.id)}`, true);
        return;
      }
      if (Object.keys(body).length === 0) {
        setSaved('Nothing to save: no field changed.');
        return;
      }
      const updated = await v2.patch<CustomFunction>(`/custom-functions/${encodeURIComponent(fn.id)}`, body);
      setDraft(toDraft(updated));
      setSaved('Saved');
      onSaved(updated);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    } finally {
      setBusy(false);
    }
  };
  const storedHeaders = Object.keys(fn?.headers ?? {});
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="fn-form-h">
      <h3 id="fn-form-h">Settings</h3>
      <FormErrorNotice error={error} />
      <fieldset class="bare" disabled={!write}>
        <TextInput
          label="Name"
          name="name"
          error={error}
          hint="What the model calls it by: letters, digits and _ (e.g. check_order_status)"
          value={draft.name}
          onChange={(v) => set({ name: v })}
        />
        <TextArea
          label="Description"
          name="description"
          error={error}
          rows={3}
          hint="Tells the model what the function does and when to call it"
          value={draft.description}
          onChange={(v) => set({ description: v })}
        />
        <Select
          label="Method"
          name="method"
          error={error}
          value={draft.method}
          onChange={(v) => set({ method: v })}
          options={METHODS}
        />
        <TextInput
          label="HTTPS URL"
          name="url"
          type="url"
          error={error}
          placeholder="https://api.example.com/orders/status"
          value={draft.url}
          onChange={(v) => set({ url: v })}
        />
        <ParametersEditor state={draft.params} onChange={(p) => set({ params: p })} error={error} />
        <fieldset class="group">
          <legend>Headers sent with every request</legend>
          {fn && (
            <>
              <p class="muted">
                {storedHeaders.length
                  ? `Stored (values hidden): ${storedHeaders.join(', ')}.`
                  : 'No headers are stored.'}
              </p>
              <Checkbox
                label="Replace the stored headers"
                name="replace_headers"
                checked={draft.replaceHeaders}
                onChange={(v) => set({ replaceHeaders: v })}
              />
            </>
          )}
          {draft.replaceHeaders && (
            <PairList
              legend={fn ? 'New headers (none: remove them all)' : 'Headers'}
              keyLabel="Header name"
              valueLabel="Header value"
              name="headers"
              error={error}
              hint="e.g. Authorization: Bearer …; stored encrypted, never shown again"
              value={draft.headers}
              max={20}
              addLabel="Add a header"
              onChange={(v) => set({ headers: v })}
            />
          )}
        </fieldset>
        <div class="row">
          <TextInput
            label="Timeout (ms)"
            name="timeout_ms"
            type="number"
            error={error}
            hint="1000 to 120000, a retry included"
            value={draft.timeout_ms}
            onChange={(v) => set({ timeout_ms: v })}
          />
        </div>
        <Checkbox
          label="Let the conversation go on while the request runs"
          name="async"
          error={error}
          checked={draft.async}
          onChange={(v) => set({ async: v })}
        />
        <fieldset class="group">
          <legend>What the agent says</legend>
          <TextInput
            label="As the request leaves"
            name="speech.on_start"
            error={error}
            hint="Empty: nothing"
            value={draft.on_start}
            onChange={(v) => set({ on_start: v })}
          />
          <div class="row">
            <TextInput
              label="When it takes long"
              name="speech.on_delay"
              error={error}
              hint="Empty: nothing"
              value={draft.on_delay}
              onChange={(v) => set({ on_delay: v })}
            />
            <TextInput
              label="Long means after (ms)"
              name="speech.delay_ms"
              type="number"
              error={error}
              hint="500 to 60000"
              value={draft.delay_ms}
              onChange={(v) => set({ delay_ms: v })}
            />
          </div>
          <TextInput
            label="When it fails"
            name="speech.on_failure"
            error={error}
            hint="Empty: the model words it"
            value={draft.on_failure}
            onChange={(v) => set({ on_failure: v })}
          />
        </fieldset>
        <PairList
          legend="Call variables from the answer"
          keyLabel="Variable"
          valueLabel="Path in the answer"
          name="response_variables"
          error={error}
          hint={'e.g. order_status from $.order.status: $ then .key, ["key"] or [index] parts'}
          value={draft.response_variables}
          max={20}
          valuePlaceholder="$.order.status"
          addLabel="Add a variable"
          onChange={(v) => set({ response_variables: v })}
        />
      </fieldset>
      {write && (
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : fn ? 'Save changes' : 'Create function'}
          </button>{' '}
          <span role="status" class="ok">
            {saved}
          </span>
        </div>
      )}
    </form>
  );
}

interface TestResult {
  outcome: string;
  status: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  variables: Record<string, unknown>;
  log_id: string | null;
}

/** Sample arguments: a field per argument when the schema is simple, else JSON. */
function argumentsOf(rows: PropertyRow[], values: Record<string, string | boolean>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    const v = values[r.name];
    if (r.type === 'boolean') {
      if (v !== undefined) out[r.name] = v === true;
    } else if (typeof v === 'string' && v.trim() !== '') {
      if (r.type === 'number' || r.type === 'integer') out[r.name] = Number(v);
      else if (r.type === 'string[]')
        out[r.name] = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      else out[r.name] = v;
    }
  }
  return out;
}

function FunctionTest({ fn, onTested }: { fn: CustomFunction; onTested: () => void }) {
  const rows = schemaToRows(fn.parameters);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [json, setJson] = useState('{}');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<{ test: TestResult; log: IntegrationLogEntry | null } | null>(null);
  const names = useNames();
  const id = useId('test');
  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    let args: Record<string, unknown>;
    if (rows) args = argumentsOf(rows, values);
    else {
      try {
        args = JSON.parse(json) as Record<string, unknown>;
      } catch (err) {
        setError(
          new ApiError(
            400,
            'VALIDATION_ERROR',
            `The arguments are not valid JSON: ${(err as Error).message}`,
          ),
        );
        return;
      }
    }
    setBusy(true);
    setResult(null);
    try {
      const test = await v2.post<TestResult>(`/custom-functions/${encodeURIComponent(fn.id)}/test`, {
        arguments: args,
      });
      const log = test.log_id
        ? await v2
            .get<IntegrationLogEntry>(`/integration-logs/${encodeURIComponent(test.log_id)}`)
            .catch(() => null)
        : null;
      setResult({ test, log });
      onTested();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="test-h">
      <h3 id="test-h">Test</h3>
      <p class="muted">
        Sends one request exactly as a call would (signed, with your headers), marked as a test, with these
        arguments.
      </p>
      <form onSubmit={run} noValidate aria-label="Test arguments">
        {rows ? (
          rows.length ? (
            rows.map((r) =>
              r.type === 'boolean' ? (
                <div class="field check" key={r.name}>
                  <input
                    type="checkbox"
                    id={`${id}-${r.name}`}
                    checked={values[r.name] === true}
                    onChange={(e) => setValues({ ...values, [r.name]: e.currentTarget.checked })}
                  />
                  <label for={`${id}-${r.name}`}>{r.name}</label>
                </div>
              ) : (
                <div class="field" key={r.name}>
                  <label for={`${id}-${r.name}`}>
                    {r.name}
                    {r.required ? ' (required)' : ''}
                  </label>
                  {r.choices.length ? (
                    <select
                      id={`${id}-${r.name}`}
                      value={String(values[r.name] ?? '')}
                      onChange={(e) => setValues({ ...values, [r.name]: e.currentTarget.value })}
                    >
                      <option value="">—</option>
                      {r.choices.map((c) => (
                        <option key={c}>{c}</option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={`${id}-${r.name}`}
                      type={r.type === 'number' || r.type === 'integer' ? 'number' : 'text'}
                      value={String(values[r.name] ?? '')}
                      onInput={(e) => setValues({ ...values, [r.name]: e.currentTarget.value })}
                    />
                  )}
                  {(r.description || r.type === 'string[]') && (
                    <small class="muted">
                      {r.description}
                      {r.type === 'string[]' ? ' (comma-separated)' : ''}
                    </small>
                  )}
                </div>
              ),
            )
          ) : (
            <p class="muted">The function takes no arguments.</p>
          )
        ) : (
          <div class="field">
            <label for={`${id}-json`}>Arguments (JSON object)</label>
            <textarea
              id={`${id}-json`}
              rows={6}
              value={json}
              onInput={(e) => setJson(e.currentTarget.value)}
            />
          </div>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Sending…' : 'Send test request'}
        </button>
      </form>
      <FormErrorNotice error={error} />
      <div aria-live="polite">
        {result && (
          <section class="test-result" aria-labelledby="test-result-h">
            <h4 id="test-result-h">Result</h4>
            <p>
              <OutcomeBadge outcome={result.test.outcome} status={result.test.status} /> in{' '}
              {result.test.latency_ms} ms
            </p>
            {/* Without a log entry (nothing was sent), the error is told here; else the entry tells it. */}
            {!result.log && result.test.error && <p class="error">{result.test.error}</p>}
            {!result.log && <FailureHelp error={result.test.error} />}
            {Object.keys(result.test.variables).length > 0 && (
              <table class="compact">
                <caption>Call variables set from the answer</caption>
                <tbody>
                  {Object.entries(result.test.variables).map(([k, v]) => (
                    <tr key={k}>
                      <th scope="row">{k}</th>
                      <td>
                        <code>{JSON.stringify(v)}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {result.log ? (
              <>
                <IntegrationLogEntryView entry={result.log} names={names} headingLevel={4} />
                <p>
                  <a {...linkProps(`/tools/logs/${encodeURIComponent(result.log.id)}`)}>
                    Open this request in the log
                  </a>
                </p>
              </>
            ) : (
              <p class="muted">Nothing was sent.</p>
            )}
          </section>
        )}
      </div>
    </section>
  );
}

function FunctionAgents({
  fn,
  write,
  onChange,
}: {
  fn: CustomFunction;
  write: boolean;
  onChange: () => void;
}) {
  const agents = useLoad(loadAgentNames, []);
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const act = (f: () => Promise<unknown>) => runAction(setError, f, onChange);
  const available = [...(agents.data ?? new Map<string, string>()).entries()].filter(
    ([id]) => !fn.attached_agents.some((a) => a.id === id),
  );
  return (
    <section class="card" aria-labelledby="fn-agents-h">
      <h3 id="fn-agents-h">Agents using it</h3>
      <ErrorNotice error={error} />
      <ul class="plain" aria-label="Agents the function is attached to">
        {fn.attached_agents.map((a) => (
          <li key={a.id}>
            <a {...linkProps(`/agents/${encodeURIComponent(a.id)}?section=tools`)}>{a.name}</a>{' '}
            {write && (
              <button
                type="button"
                class="secondary"
                aria-label={`Detach from ${a.name}`}
                onClick={() =>
                  act(() => v2.del(`/agent/${a.id}/custom-functions/${encodeURIComponent(fn.id)}`))
                }
              >
                Detach
              </button>
            )}
          </li>
        ))}
        {fn.attached_agents.length === 0 && <li class="muted">Not attached to any agent.</li>}
      </ul>
      {write && available.length > 0 && (
        <div class="row">
          <div class="field">
            <label for="fn-agent-choice">Agent</label>
            <select id="fn-agent-choice" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
              <option value="">Choose an agent…</option>
              {available.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            disabled={!choice}
            onClick={() =>
              act(async () => {
                await v2.post(`/agent/${choice}/custom-functions/${encodeURIComponent(fn.id)}`);
                setChoice('');
              })
            }
          >
            Attach to agent
          </button>
        </div>
      )}
    </section>
  );
}

function FunctionLogs({ fn, tests }: { fn: CustomFunction; tests: number }) {
  const logs = useLoad(
    () =>
      v2.get<{ integration_logs: IntegrationLogSummary[] }>('/integration-logs', {
        function_id: fn.id,
        limit: 10,
      }),
    [fn.id, fn.updated_at, tests],
  );
  const names = useNames();
  return (
    <section class="card" aria-labelledby="fn-logs-h">
      <div class="row">
        <h3 id="fn-logs-h">Latest requests</h3>
        <button type="button" class="secondary" onClick={logs.reload}>
          Refresh
        </button>
        <a {...linkProps(`/tools/logs?function_id=${encodeURIComponent(fn.id)}`)}>
          All requests of {fn.name}
        </a>
      </div>
      <LoadState loaded={logs}>
        {(l) => (
          <IntegrationLogTable
            logs={l.integration_logs}
            names={names}
            caption={`Latest requests of ${fn.name}`}
          />
        )}
      </LoadState>
    </section>
  );
}

export function FunctionPage({ session, id }: { session: Session; id: string | null }) {
  const fn = useLoad(
    () =>
      id ? v2.get<CustomFunction>(`/custom-functions/${encodeURIComponent(id)}`) : Promise.resolve(null),
    [id],
  );
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(() => {
    const issued = id ? issuedSecrets.get(id) : undefined;
    if (!id || !issued) return null;
    issuedSecrets.delete(id);
    return { title: 'Function created: its signing secret', value: issued };
  });
  const [error, setError] = useState<ApiError | null>(null);
  // Each test adds a request to the log: the latest requests are read again.
  const [tests, setTests] = useState(0);
  const write = can.write(session);
  if (id && fn.error && !fn.data) return <ErrorNotice error={fn.error} />;
  if (id && !fn.data) return <p class="muted">Loading…</p>;
  const f = fn.data;
  const rotate = () =>
    runAction(
      setError,
      async () => {
        const r = await v2.post<{ signing_secret: string }>(
          `/custom-functions/${encodeURIComponent(f!.id)}/rotate-secret`,
        );
        setSecret({ title: 'New signing secret', value: r.signing_secret });
      },
      () => undefined,
    );
  const remove = () =>
    window.confirm(`Delete ${f!.name}? It is detached from every agent.`) &&
    runAction(
      setError,
      () => v2.del(`/custom-functions/${encodeURIComponent(f!.id)}`),
      () => navigate('/tools'),
    );
  return (
    <>
      <div class="row">
        <h2>{f ? f.name : 'New custom function'}</h2>
        <a {...linkProps('/tools')}>All tools</a>
      </div>
      {secret && (
        <SecretOnce
          title={secret.title}
          secret={secret.value}
          use="Your endpoint checks each request’s X-Vap-Signature with it (see the custom functions guide)."
          onDone={() => setSecret(null)}
        />
      )}
      <ErrorNotice error={error} />
      {f && (
        <p class="muted">
          Created {formatDate(f.created_at)} · updated {formatDate(f.updated_at)}
        </p>
      )}
      <FunctionForm key={f?.id ?? 'new'} fn={f} write={write} onSaved={() => fn.reload()} />
      {f && (
        <>
          {write && <FunctionTest fn={f} onTested={() => setTests((n) => n + 1)} />}
          <FunctionAgents fn={f} write={write} onChange={fn.reload} />
          <FunctionLogs fn={f} tests={tests} />
          {write && (
            <section class="card" aria-labelledby="fn-danger-h">
              <h3 id="fn-danger-h">Signing secret and deletion</h3>
              <div class="row">
                <button type="button" class="secondary" onClick={rotate}>
                  Rotate signing secret
                </button>
                <button type="button" class="danger" onClick={remove}>
                  Delete function
                </button>
              </div>
            </section>
          )}
        </>
      )}
    </>
  );
}
