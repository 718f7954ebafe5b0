// API keys: create a named key for a use (a preset of scopes: the web page server's, read only, full access) or
// limited to scopes chosen one by one (shown once, with a copy button), list them
// (prefix, name, scopes, created, last used) and revoke them. Only owners and admins manage keys; others see the list.
// Below them the publishable keys of the one-tag widget (publishable-keys.tsx).
import { useState } from 'preact/hooks';
import { ApiError, consoleApi } from '../api.js';
import { CopyButton, ErrorNotice, Field, LoadState, useLoad } from '../components/ui.js';
import { can, Session } from '../session.js';
import { formatDate } from '../components/format.js';
import { RadioGroup } from '../components/inputs.js';
import { CUSTOM_PRESET, KEY_PRESETS, scopesToSend } from './key-presets.js';
import { PublishableKeysSection } from './publishable-keys.js';

export interface ApiKeyRecord {
  id: string;
  name: string | null;
  prefix: string;
  scopes: string[] | null;
  created_by: { kind: 'operator' | 'user' | 'unknown'; name: string | null };
  created_at: string;
  last_used_at: string | null;
}

export function KeysPage({ session }: { session: Session }) {
  const keys = useLoad(() => consoleApi.get<{ keys: ApiKeyRecord[] }>('/keys'), []);
  const catalogue = useLoad(
    () => consoleApi.get<{ scopes: { name: string; description: string }[] }>('/keys/scopes'),
    [],
  );
  const [preset, setPreset] = useState('full');
  const [scopes, setScopes] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const manage = can.manageKeys(session);
  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const chosen = scopesToSend(preset, scopes);
      const res = await consoleApi.post<{ api_key: string; key: ApiKeyRecord }>('/keys', {
        name,
        ...(chosen ? { scopes: chosen } : {}),
      });
      setCreated({ name: res.key.name ?? name, secret: res.api_key });
      setName('');
      setPreset('full');
      setScopes([]);
      keys.reload();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  const revoke = async (k: ApiKeyRecord) => {
    if (!window.confirm(`Revoke the key "${k.name ?? k.prefix}"? Requests with it stop working at once.`))
      return;
    setError(null);
    try {
      await consoleApi.del(`/keys/${k.id}`);
      keys.reload();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <>
      <h2>API keys</h2>
      <ErrorNotice error={error} />
      {created && (
        <div class="card" role="status">
          <p>
            <strong>Your new key “{created.name}”.</strong> Copy it now: it is shown only once.
          </p>
          <p class="secret" data-testid="new-key">
            {created.secret}
          </p>
          <CopyButton text={created.secret} label="Copy key" />{' '}
          <button class="secondary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {manage && (
        <form class="card" onSubmit={create} aria-labelledby="create-key-h">
          <h3 id="create-key-h">Create a key</h3>
          <Field label="Name" name="name" error={error}>
            {(p) => <input {...p} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <RadioGroup
            legend="What the key is for"
            name="scopes"
            error={error}
            options={KEY_PRESETS.map((p) => [p.value, p.label, p.hint])}
            value={preset}
            onChange={setPreset}
          />
          {preset === CUSTOM_PRESET && (
            <fieldset>
              <legend>Scopes (none chosen: full access)</legend>
              {(catalogue.data?.scopes ?? []).map((sc) => (
                <div key={sc.name}>
                  <input
                    type="checkbox"
                    name="scope"
                    value={sc.name}
                    id={`scope-${sc.name}`}
                    checked={scopes.includes(sc.name)}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setScopes((all) => (on ? [...all, sc.name] : all.filter((x) => x !== sc.name)));
                    }}
                  />{' '}
                  <label for={`scope-${sc.name}`} style="display:inline;font-weight:400">
                    <code>{sc.name}</code> — {sc.description}
                  </label>
                </div>
              ))}
            </fieldset>
          )}
          <p>
            <button type="submit">Create key</button>
          </p>
        </form>
      )}
      <LoadState loaded={keys}>
        {(k) => (
          <>
            {k.keys.some((key) => key.created_by.kind === 'operator') && (
              <p class="card muted">
                Keys made by the platform operator were made for your account when it was opened (the first
                one is named “default” and has full access). If nobody on your team uses one (its “Last used”
                stays empty), revoke it.
              </p>
            )}
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Made by</th>
                  <th scope="col">Last used</th>
                  {manage && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {k.keys.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td>{key.scopes ? key.scopes.join(', ') : 'full access'}</td>
                    <td>{formatDate(key.created_at)}</td>
                    <td>{madeBy(key)}</td>
                    <td>{formatDate(key.last_used_at)}</td>
                    {manage && (
                      <td>
                        <button
                          class="danger"
                          onClick={() => revoke(key)}
                          aria-label={`Revoke ${key.name ?? key.prefix}`}
                        >
                          Revoke
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </LoadState>
      <PublishableKeysSection session={session} />
    </>
  );
}

function madeBy(key: ApiKeyRecord): string {
  if (key.created_by.kind === 'operator') return 'Platform operator';
  if (key.created_by.kind === 'user') return key.created_by.name ?? 'A former team member';
  return '—';
}
