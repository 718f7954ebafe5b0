// What is attached to an agent by its own routes (custom functions, documents, extraction sets): changed at
// once, not by saving the form. A new agent collects its functions and attaches them once it exists.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../../api.js';
import { NamedFunction } from '../../components/names.js';
import { ErrorNotice, LoadState, runAction, useId, useLoad } from '../../components/ui.js';
import { linkProps } from '../../router.js';
import { Agent } from './model.js';

function Chooser({
  label,
  placeholder,
  options,
  onAdd,
  addLabel,
}: {
  label: string;
  placeholder: string;
  options: { id: string; name: string }[];
  onAdd: (id: string) => void;
  addLabel: string;
}) {
  const [choice, setChoice] = useState('');
  const id = useId('chooser');
  if (options.length === 0) return null;
  return (
    <div class="row">
      <div class="field">
        <label for={id}>{label}</label>
        <select id={id} value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
          <option value="">{placeholder}</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        disabled={!choice}
        onClick={() => {
          onAdd(choice);
          setChoice('');
        }}
      >
        {addLabel}
      </button>
    </div>
  );
}

/**
 * The agent's custom functions, in attach order, each linking to its page. For an agent not created yet,
 * `pending` holds the functions to attach right after it is.
 */
export function AgentFunctions({
  agent,
  functions,
  write,
  onChange,
  pending,
  setPending,
}: {
  agent: Agent | null;
  functions: NamedFunction[];
  write: boolean;
  onChange: () => void;
  pending: string[];
  setPending: (ids: string[]) => void;
}) {
  const [error, setError] = useState<ApiError | null>(null);
  const names = new Map(functions.map((f) => [f.id, f.name]));
  const attached: { id: string; name: string }[] = agent
    ? (agent.custom_functions ?? [])
    : pending.map((id) => ({ id, name: names.get(id) ?? id }));
  const act = (fn: () => Promise<unknown>) => runAction(setError, fn, onChange);
  const available = functions.filter((f) => !attached.some((a) => a.id === f.id));
  return (
    <fieldset class="part">
      <legend>Custom functions</legend>
      <p class="muted">
        Your HTTPS endpoints the model may call during this agent’s calls. Create and test them on the{' '}
        <a {...linkProps('/tools')}>Tools</a> page.
      </p>
      <ErrorNotice error={error} />
      <ul class="plain" aria-label="Attached custom functions">
        {attached.map((f) => (
          <li key={f.id}>
            <a {...linkProps(`/tools/functions/${encodeURIComponent(f.id)}`)}>{f.name}</a>{' '}
            {write && (
              <button
                type="button"
                class="secondary"
                aria-label={`Detach ${f.name}`}
                onClick={() =>
                  agent
                    ? act(() => v2.del(`/agent/${agent.id}/custom-functions/${encodeURIComponent(f.id)}`))
                    : setPending(pending.filter((p) => p !== f.id))
                }
              >
                Detach
              </button>
            )}
          </li>
        ))}
        {attached.length === 0 && <li class="muted">No custom functions attached.</li>}
      </ul>
      {write && (
        <Chooser
          label="Custom function"
          placeholder="Choose a function…"
          options={available}
          addLabel="Attach"
          onAdd={(id) =>
            agent
              ? act(() => v2.post(`/agent/${agent.id}/custom-functions/${encodeURIComponent(id)}`))
              : setPending([...pending, id])
          }
        />
      )}
      {write && functions.length === 0 && (
        <p class="muted">
          The account has no custom functions yet: <a {...linkProps('/tools/functions/new')}>create one</a>.
        </p>
      )}
    </fieldset>
  );
}

interface LinkedDoc {
  document_id: string;
  name: string;
  index_status: string;
}

export function AgentDocuments({ agentId, write }: { agentId: string; write: boolean }) {
  const linked = useLoad(() => v2.get<{ documents: LinkedDoc[] }>(`/agent/${agentId}/documents`), [agentId]);
  const all = useLoad(
    () => v2.get<{ documents: { id: string; name: string }[] }>('/documents', { limit: 100 }),
    [],
  );
  const [error, setError] = useState<ApiError | null>(null);
  const act = (fn: () => Promise<unknown>) => runAction(setError, fn, linked.reload);
  return (
    <fieldset class="part">
      <legend>Documents</legend>
      <ErrorNotice error={error} />
      <LoadState loaded={linked}>
        {(l) => (
          <>
            <ul class="plain" aria-label="Attached documents">
              {l.documents.map((d) => (
                <li key={d.document_id}>
                  {d.name} <span class="badge">{d.index_status}</span>{' '}
                  {write && (
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Detach ${d.name}`}
                      onClick={() => act(() => v2.del(`/agent/${agentId}/documents/${d.document_id}`))}
                    >
                      Detach
                    </button>
                  )}
                </li>
              ))}
              {l.documents.length === 0 && <li class="muted">No documents attached.</li>}
            </ul>
            {write && all.data && (
              <Chooser
                label="Document"
                placeholder="Choose a document…"
                options={all.data.documents.filter((d) => !l.documents.some((x) => x.document_id === d.id))}
                addLabel="Attach document"
                onAdd={(id) => act(() => v2.post(`/agent/${agentId}/documents`, { document_id: id }))}
              />
            )}
          </>
        )}
      </LoadState>
    </fieldset>
  );
}

export function AgentExtractionSets({
  agent,
  write,
  onChange,
}: {
  agent: Agent;
  write: boolean;
  onChange: () => void;
}) {
  const sets = useLoad(
    () => v2.get<{ extraction_sets: { id: string; name: string }[] }>('/extraction-sets', { limit: 100 }),
    [],
  );
  const [error, setError] = useState<ApiError | null>(null);
  const attached: { id: string; name: string }[] = agent.extraction_sets ?? [];
  const act = (fn: () => Promise<unknown>) => runAction(setError, fn, onChange);
  return (
    <fieldset class="part">
      <legend>Extraction sets</legend>
      <ErrorNotice error={error} />
      <ul class="plain" aria-label="Attached extraction sets">
        {attached.map((s) => (
          <li key={s.id}>
            {s.name}{' '}
            {write && (
              <button
                type="button"
                class="secondary"
                aria-label={`Detach ${s.name}`}
                onClick={() => act(() => v2.del(`/agent/${agent.id}/extraction-sets/${s.id}`))}
              >
                Detach
              </button>
            )}
          </li>
        ))}
        {attached.length === 0 && <li class="muted">No extraction sets attached.</li>}
      </ul>
      {write && sets.data && (
        <Chooser
          label="Extraction set"
          placeholder="Choose a set…"
          options={sets.data.extraction_sets.filter((s) => !attached.some((a) => a.id === s.id))}
          addLabel="Attach set"
          onAdd={(id) => act(() => v2.post(`/agent/${agent.id}/extraction-sets/${id}`))}
        />
      )}
    </fieldset>
  );
}
