// Agents: the list, one form for creating and editing every field (the API's validation messages shown at
// their fields), the documents and extraction sets attached, and a sandbox test call followed live.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { ErrorNotice, Field, formatDate, LoadState, useLoad, Pager, runAction } from '../components/ui.js';
import { linkProps, navigate } from '../router.js';
import { can, Session } from '../session.js';
import { AgentTryIt } from './agent-try-it.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Agent = Record<string, any> & { id: string; agent_name: string };

interface AgentList {
  agents: Agent[];
  next_cursor: string | null;
}

export function AgentsPage({ session }: { session: Session }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const list = useLoad(() => v2.get<AgentList>('/agent', { cursor, search, limit: 25 }), [cursor, search]);
  return (
    <>
      <div class="row">
        <h2>Agents</h2>
        {can.write(session) && (
          <a class="button" {...linkProps('/agents/new')}>
            New agent
          </a>
        )}
      </div>
      <div class="field">
        <label for="agent-search">Search by name</label>
        <input
          id="agent-search"
          type="search"
          value={search}
          onChange={(e) => {
            setCursor(undefined);
            setSearch(e.currentTarget.value);
          }}
        />
      </div>
      <LoadState loaded={list}>
        {(page) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Voice</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {page.agents.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <a {...linkProps(`/agents/${a.id}`)}>{a.agent_name}</a>
                    </td>
                    <td>{a.agent_type}</td>
                    <td>{a.voice_id}</td>
                    <td>{formatDate(a.updated_at)}</td>
                  </tr>
                ))}
                {page.agents.length === 0 && (
                  <tr>
                    <td colSpan={4} class="muted">
                      No agents yet.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
            <Pager cursor={cursor} next={page.next_cursor} onPage={setCursor} />
          </>
        )}
      </LoadState>
    </>
  );
}

type Kind = 'text' | 'textarea' | 'number' | 'boolean' | 'json' | 'select' | 'list';

interface FieldSpec {
  name: string;
  label: string;
  kind: Kind;
  options?: string[];
  hint?: string;
  required?: boolean;
  /** Accepted on an update only (PUT), not when the agent is created. */
  updateOnly?: boolean;
}

/** Every field of an agent the API accepts, in the order a person fills them in. */
const AGENT_FIELDS: FieldSpec[] = [
  { name: 'agent_name', label: 'Name', kind: 'text', required: true },
  {
    name: 'agent_type',
    label: 'Type',
    kind: 'select',
    options: ['outbound', 'inbound'],
    required: true,
  },
  { name: 'voice_id', label: 'Voice', kind: 'select', required: true },
  {
    name: 'prompt',
    label: 'Prompt',
    kind: 'textarea',
    required: true,
    hint: 'What the agent is and does; {{variables}} are filled per call',
  },
  { name: 'intro_message', label: 'Intro message', kind: 'textarea' },
  {
    name: 'spoken_languages',
    label: 'Spoken languages',
    kind: 'list',
    hint: 'Comma-separated codes, e.g. en, hi',
  },
  { name: 'project_id', label: 'Project id', kind: 'text', hint: 'Empty: the default project' },
  { name: 'max_call_duration_secs', label: 'Maximum call duration (seconds)', kind: 'number' },
  { name: 'enable_recording', label: 'Record calls', kind: 'boolean' },
  { name: 'voicemail_detection_enabled', label: 'Detect voicemail', kind: 'boolean' },
  { name: 'voicemail_message', label: 'Voicemail message', kind: 'textarea' },
  { name: 'screener_handling_enabled', label: 'Handle call screeners', kind: 'boolean' },
  { name: 'end_call_enabled', label: 'Agent may end the call', kind: 'boolean' },
  { name: 'end_call_message', label: 'End-call message', kind: 'text' },
  { name: 'end_call_instructions', label: 'End-call instructions', kind: 'textarea' },
  { name: 'transfer_enabled', label: 'Agent may transfer', kind: 'boolean' },
  { name: 'transfer_number', label: 'Transfer number', kind: 'text', hint: 'E.164, e.g. +14155550100' },
  { name: 'transfer_message', label: 'Transfer message', kind: 'text' },
  { name: 'transfer_instructions', label: 'Transfer instructions', kind: 'textarea' },
  { name: 'user_idle_enabled', label: 'Prompt an idle caller', kind: 'boolean' },
  { name: 'send_dtmf_enabled', label: 'Agent may press keys', kind: 'boolean' },
  { name: 'extraction_enabled', label: 'Extract data after calls', kind: 'boolean' },
  {
    name: 'kb_threshold',
    label: 'Knowledge base threshold',
    kind: 'select',
    options: ['', 'low', 'medium', 'high'],
  },
  { name: 'kb_include_summaries', label: 'Include document summaries', kind: 'boolean' },
  { name: 'kb_result_format', label: 'Knowledge result format', kind: 'text' },
  { name: 'kb_enable_llm_processing', label: 'Process knowledge results with the model', kind: 'boolean' },
  { name: 'kb_llm_system_prompt', label: 'Knowledge processing prompt', kind: 'textarea' },
  { name: 'background_audio_id', label: 'Background audio id', kind: 'text' },
  { name: 'background_audio_volume', label: 'Background audio volume', kind: 'number' },
  {
    name: 'webhooks_include_account_endpoints',
    label: 'Also send to account-wide webhooks',
    kind: 'boolean',
    updateOnly: true,
  },
  { name: 'tool_ack_config', label: 'Tool acknowledgements (JSON)', kind: 'json' },
  { name: 'turn_taking', label: 'Turn taking (JSON)', kind: 'json' },
  { name: 'dtmf', label: 'Keypad input (JSON)', kind: 'json' },
  { name: 'extraction_config', label: 'Extraction keys (JSON)', kind: 'json' },
];

type FormValues = Record<string, string | boolean>;

function toForm(agent: Agent | null): FormValues {
  const v: FormValues = {};
  for (const f of AGENT_FIELDS) {
    const value = agent?.[f.name];
    if (f.kind === 'boolean') v[f.name] = Boolean(value);
    else if (f.kind === 'json')
      v[f.name] = value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
    else if (f.kind === 'list') v[f.name] = Array.isArray(value) ? value.join(', ') : '';
    else v[f.name] = value === null || value === undefined ? '' : String(value);
  }
  if (!agent) v.agent_type = 'outbound';
  return v;
}

/** The request body: only fields set (on create) or changed (on edit); an emptied field is sent as null. */
function toBody(
  values: FormValues,
  original: FormValues | null,
): { body: Record<string, unknown>; error: ApiError | null } {
  const body: Record<string, unknown> = {};
  const details: { field: string; message: string }[] = [];
  for (const f of AGENT_FIELDS) {
    const value = values[f.name];
    if (original && value === original[f.name]) continue;
    if (!original && f.updateOnly) continue;
    if (f.kind === 'boolean') body[f.name] = value;
    else if (typeof value === 'string' && value.trim() === '') {
      if (original) body[f.name] = null;
    } else if (f.kind === 'number') body[f.name] = Number(value);
    else if (f.kind === 'list')
      body[f.name] = String(value)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (f.kind === 'json') {
      try {
        body[f.name] = JSON.parse(String(value));
      } catch {
        details.push({ field: f.name, message: `${f.name} must be valid JSON` });
      }
    } else body[f.name] = value;
  }
  return {
    body,
    error: details.length
      ? new ApiError(400, 'VALIDATION_ERROR', 'Some fields are not valid', details)
      : null,
  };
}

interface Voice {
  voice_id: string;
  name: string;
  language: string;
}

export function AgentFormPage({ session, id }: { session: Session; id: string | null }) {
  const agent = useLoad(
    () => (id ? v2.get<Agent>(`/agent/${encodeURIComponent(id)}`) : Promise.resolve(null)),
    [id],
  );
  const voices = useLoad(() => v2.get<{ voices: Voice[] }>('/agent/voices'), []);
  if (id && agent.error) return <ErrorNotice error={agent.error} />;
  if (id && !agent.data) return <p class="muted">Loading…</p>;
  const voiceList = voices.data?.voices ?? [];
  return (
    <>
      <h2>{id ? agent.data!.agent_name : 'New agent'}</h2>
      <AgentForm
        key={id ?? 'new'}
        session={session}
        agent={agent.data}
        voices={voiceList}
        onSaved={agent.reload}
      />
      {id && agent.data && (
        <>
          <TestCall session={session} agent={agent.data} />
          <AgentTryIt session={session} agent={agent.data} />
          <AgentDocuments session={session} agentId={id} />
          <AgentExtractionSets session={session} agent={agent.data} onChange={agent.reload} />
        </>
      )}
    </>
  );
}

function AgentForm({
  session,
  agent,
  voices,
  onSaved,
}: {
  session: Session;
  agent: Agent | null;
  voices: Voice[];
  onSaved: () => void;
}) {
  const original = agent ? toForm(agent) : null;
  const [values, setValues] = useState<FormValues>(toForm(agent));
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const readOnly = !can.write(session);
  const set = (name: string, value: string | boolean) => {
    setSaved(false);
    setValues((v) => ({ ...v, [name]: value }));
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const { body, error: local } = toBody(values, original);
    if (local) return setError(local);
    setBusy(true);
    setError(null);
    try {
      if (agent) {
        await v2.put(`/agent/${agent.id}`, body);
        setSaved(true);
        onSaved();
      } else {
        const created = await v2.post<Agent>('/agent', body);
        navigate(`/agents/${created.id}`, true);
      }
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} noValidate>
      <ErrorNotice error={error} />
      <fieldset disabled={readOnly} style="border:0;padding:0;margin:0">
        {AGENT_FIELDS.filter((f) => agent || !f.updateOnly).map((f) => (
          <Field key={f.name} label={f.label} name={f.name} error={error} hint={f.hint}>
            {(p) => {
              const value = values[f.name];
              if (f.kind === 'boolean')
                return (
                  <input
                    {...p}
                    type="checkbox"
                    checked={Boolean(value)}
                    onChange={(e) => set(f.name, e.currentTarget.checked)}
                  />
                );
              if (f.kind === 'textarea' || f.kind === 'json')
                return (
                  <textarea
                    {...p}
                    value={String(value)}
                    onInput={(e) => set(f.name, e.currentTarget.value)}
                  />
                );
              if (f.kind === 'select') {
                const options = f.name === 'voice_id' ? voices.map((v) => v.voice_id) : (f.options ?? []);
                const names = new Map(voices.map((v) => [v.voice_id, `${v.name} (${v.language})`]));
                return (
                  <select {...p} value={String(value)} onChange={(e) => set(f.name, e.currentTarget.value)}>
                    {!options.includes(String(value)) && (
                      <option value={String(value)}>{String(value) || '—'}</option>
                    )}
                    {options.map((o) => (
                      <option key={o} value={o}>
                        {names.get(o) ?? (o || '—')}
                      </option>
                    ))}
                  </select>
                );
              }
              return (
                <input
                  {...p}
                  type={f.kind === 'number' ? 'number' : 'text'}
                  value={String(value)}
                  onInput={(e) => set(f.name, e.currentTarget.value)}
                />
              );
            }}
          </Field>
        ))}
      </fieldset>
      {!readOnly && (
        <button type="submit" disabled={busy}>
          {agent ? 'Save changes' : 'Create agent'}
        </button>
      )}{' '}
      <span role="status" class="ok">
        {saved ? 'Saved' : ''}
      </span>
    </form>
  );
}

/** Places a call on the sandbox carrier and opens its page, which follows it live. */
function TestCall({ session, agent }: { session: Session; agent: Agent }) {
  const [to, setTo] = useState('+919000000000');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  if (!can.write(session)) return null;
  const start = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const call = await v2.post<{ call_id: string }>('/calls/start', { agent_id: agent.id, to_number: to });
      navigate(`/calls/${call.call_id}`);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={start}>
      <h3>Test call on the sandbox</h3>
      <p class="muted">
        The sandbox carrier plays the callee; the last two digits of the number pick how the call goes (00: a
        short conversation, 01: no answer, 04: voicemail; the API guide lists them all).
      </p>
      <ErrorNotice error={error} />
      <div class="row">
        <Field label="Number to call" name="to_number" error={error}>
          {(p) => <input {...p} type="tel" value={to} onInput={(e) => setTo(e.currentTarget.value)} />}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Placing…' : 'Place test call'}
        </button>
      </div>
    </form>
  );
}

interface LinkedDoc {
  document_id?: string;
  id?: string;
  name?: string;
  index_status?: string;
}

function AgentDocuments({ session, agentId }: { session: Session; agentId: string }) {
  const linked = useLoad(() => v2.get<{ documents: LinkedDoc[] }>(`/agent/${agentId}/documents`), [agentId]);
  const all = useLoad(
    () =>
      v2.get<{ documents: { id: string; name: string; status?: string }[] }>('/documents', { limit: 100 }),
    [],
  );
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const act = (fn: () => Promise<unknown>) => runAction(setError, fn, linked.reload);
  const docId = (d: LinkedDoc) => d.document_id ?? d.id ?? '';
  return (
    <section class="card" aria-labelledby="docs-h">
      <h3 id="docs-h">Knowledge base documents</h3>
      <ErrorNotice error={error} />
      <LoadState loaded={linked}>
        {(l) => (
          <ul>
            {l.documents.map((d) => (
              <li key={docId(d)}>
                {d.name ?? docId(d)} <span class="badge">{d.index_status ?? ''}</span>{' '}
                {can.write(session) && (
                  <button
                    class="secondary"
                    onClick={() => act(() => v2.del(`/agent/${agentId}/documents/${docId(d)}`))}
                  >
                    Detach
                  </button>
                )}
              </li>
            ))}
            {l.documents.length === 0 && <li class="muted">No documents attached.</li>}
          </ul>
        )}
      </LoadState>
      {can.write(session) && all.data && (
        <div class="row">
          <div class="field">
            <label for="doc-choice">Document</label>
            <select id="doc-choice" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
              <option value="">Choose a document…</option>
              {all.data.documents.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
          <button
            disabled={!choice}
            onClick={() => act(() => v2.post(`/agent/${agentId}/documents`, { document_id: choice }))}
          >
            Attach
          </button>
        </div>
      )}
    </section>
  );
}

function AgentExtractionSets({
  session,
  agent,
  onChange,
}: {
  session: Session;
  agent: Agent;
  onChange: () => void;
}) {
  const sets = useLoad(
    () => v2.get<{ extraction_sets: { id: string; name: string }[] }>('/extraction-sets', { limit: 100 }),
    [],
  );
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const attached: { id: string; name: string }[] = Array.isArray(agent.extraction_sets)
    ? agent.extraction_sets
    : [];
  const act = (fn: () => Promise<unknown>) => runAction(setError, fn, onChange);
  return (
    <section class="card" aria-labelledby="sets-h">
      <h3 id="sets-h">Extraction sets</h3>
      <ErrorNotice error={error} />
      <ul>
        {attached.map((s) => (
          <li key={s.id}>
            {s.name}{' '}
            {can.write(session) && (
              <button
                class="secondary"
                onClick={() => act(() => v2.del(`/agent/${agent.id}/extraction-sets/${s.id}`))}
              >
                Detach
              </button>
            )}
          </li>
        ))}
        {attached.length === 0 && <li class="muted">No extraction sets attached.</li>}
      </ul>
      {can.write(session) && sets.data && (
        <div class="row">
          <div class="field">
            <label for="set-choice">Extraction set</label>
            <select id="set-choice" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
              <option value="">Choose a set…</option>
              {sets.data.extraction_sets.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <button
            disabled={!choice}
            onClick={() => act(() => v2.post(`/agent/${agent.id}/extraction-sets/${choice}`))}
          >
            Attach
          </button>
        </div>
      )}
    </section>
  );
}
