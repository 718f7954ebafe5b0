// Publishable keys (pk_live_...): public keys for the one-tag web widget. Each names the agents it may talk to
// and the pages (origins) it may be used from; shown in full when made (it is public, it goes in the page),
// then by its prefix. Made and revoked by owners and admins, on the API keys page and from the Embed page.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { useAgents } from '../components/agent-names.js';
import { CopyButton, ErrorNotice, Field, LoadState, useLoad } from '../components/ui.js';
import { formatDate } from '../components/format.js';
import { can, Session } from '../session.js';
import { readOrigins } from './embed-origins.js';

export interface PublishableKeyRecord {
  id: string;
  prefix: string;
  name: string;
  agent_ids: string[];
  allowed_origins: string[];
  sessions_per_minute: number;
  origin_sessions_per_minute: number;
  max_live_sessions: number;
  origin_max_live_sessions: number;
  created_at: string;
  last_used_at: string | null;
}

export type CreatedPublishableKey = PublishableKeyRecord & { public_key: string };

export function createPublishableKey(body: {
  name: string;
  agent_ids: string[];
  allowed_origins: string[];
}): Promise<CreatedPublishableKey> {
  return v2.post<CreatedPublishableKey>('/publishable-keys', body);
}

/** The form that makes a publishable key for chosen agents and origins; `onCreated` gets the key in full. */
export function PublishableKeyForm({
  onCreated,
  agentIds = [],
  originsText = '',
}: {
  onCreated: (key: CreatedPublishableKey) => void;
  agentIds?: string[];
  originsText?: string;
}) {
  const agents = useAgents();
  const [name, setName] = useState('Website widget');
  const [chosen, setChosen] = useState<string[]>(agentIds);
  const [origins, setOrigins] = useState(originsText);
  const [error, setError] = useState<ApiError | null>(null);
  const read = readOrigins(origins);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      onCreated(await createPublishableKey({ name, agent_ids: chosen, allowed_origins: read.origins }));
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-label="Create a publishable key">
      <h3>Create a publishable key</h3>
      <ErrorNotice error={error} />
      <Field label="Name" name="name" error={error}>
        {(p) => <input {...p} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <fieldset>
        <legend>Agents it may talk to</legend>
        {(agents.data ?? []).map((a) => (
          <div key={a.id}>
            <label style="display:inline;font-weight:400">
              <input
                type="checkbox"
                name="agent_ids"
                value={a.id}
                checked={chosen.includes(a.id)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setChosen((all) => (on ? [...all, a.id] : all.filter((x) => x !== a.id)));
                }}
              />{' '}
              {a.agent_name}
            </label>
          </div>
        ))}
      </fieldset>
      <Field
        label="Pages it may be used from (origins)"
        name="allowed_origins"
        error={error}
        hint="One per line, as the browser shows them: https://www.example.com (no path); http only for localhost."
      >
        {(p) => (
          <textarea
            {...p}
            required
            value={origins}
            placeholder="https://www.example.com"
            onInput={(e) => setOrigins(e.currentTarget.value)}
          />
        )}
      </Field>
      {read.problems.length > 0 && (
        <ul class="error" role="alert">
          {read.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <p>
        <button type="submit" disabled={!chosen.length || !read.origins.length || read.problems.length > 0}>
          Create publishable key
        </button>
      </p>
    </form>
  );
}

/** The API keys page's section: the account's publishable keys, made and revoked here. */
export function PublishableKeysSection({ session }: { session: Session }) {
  const keys = useLoad(() => v2.get<{ publishable_keys: PublishableKeyRecord[] }>('/publishable-keys'), []);
  const agents = useAgents();
  const [created, setCreated] = useState<CreatedPublishableKey | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  // The form opens on demand, so the page's first form (the API key's) is the only one until asked.
  const [making, setMaking] = useState(false);
  const manage = can.manageKeys(session);
  const agentName = (id: string) => agents.data?.find((a) => a.id === id)?.agent_name ?? id;
  const revoke = async (k: PublishableKeyRecord) => {
    if (
      !window.confirm(`Revoke the publishable key "${k.name}"? Pages using it stop starting conversations.`)
    )
      return;
    setError(null);
    try {
      await v2.del(`/publishable-keys/${k.id}`);
      keys.reload();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <section aria-labelledby="publishable-keys-h">
      <h2 id="publishable-keys-h">Publishable keys</h2>
      <p>
        A publishable key goes in your web page, in the one-tag widget (see Embed). It is public: it can only
        start voice conversations with the agents it names, from the pages it lists, within its limits and
        your balance. It cannot read or change anything.
      </p>
      <ErrorNotice error={error} />
      {created && (
        <div class="card" role="status">
          <p>
            <strong>Your publishable key “{created.name}”.</strong> Put it in your page’s widget tag; it is
            shown in full only now (only its prefix afterwards).
          </p>
          <p class="secret" data-testid="new-publishable-key">
            {created.public_key}
          </p>
          <CopyButton text={created.public_key} label="Copy publishable key" />{' '}
          <button class="secondary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {manage &&
        (making ? (
          <PublishableKeyForm
            onCreated={(k) => {
              setCreated(k);
              setMaking(false);
              keys.reload();
            }}
          />
        ) : (
          <p>
            <button type="button" class="secondary" onClick={() => setMaking(true)}>
              Create a publishable key
            </button>
          </p>
        ))}
      <LoadState loaded={keys}>
        {(k) =>
          k.publishable_keys.length === 0 ? (
            <p class="muted">No publishable keys yet.</p>
          ) : (
            <table>
              <caption class="muted">Publishable keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Agents</th>
                  <th scope="col">Pages</th>
                  <th scope="col">Limits</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  {manage && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {k.publishable_keys.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td>{key.agent_ids.map(agentName).join(', ')}</td>
                    <td>{key.allowed_origins.join(', ')}</td>
                    <td>
                      {key.sessions_per_minute}/min ({key.origin_sessions_per_minute} per page),{' '}
                      {key.max_live_sessions} at once ({key.origin_max_live_sessions} per page)
                    </td>
                    <td>{formatDate(key.created_at)}</td>
                    <td>{formatDate(key.last_used_at)}</td>
                    {manage && (
                      <td>
                        <button class="danger" onClick={() => revoke(key)} aria-label={`Revoke ${key.name}`}>
                          Revoke
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </LoadState>
    </section>
  );
}
