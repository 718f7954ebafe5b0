// Provider keys: the account's own keys for the speech providers (one per provider). Each key is checked live
// with the provider before it is stored; a refusal is shown at the key in the provider's words. Keys are never
// shown again: the list has their last four characters.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { FormErrorNotice, Select, TextInput } from '../components/inputs.js';
import { ErrorNotice, LoadState, runAction, useLoad } from '../components/ui.js';
import { can, Session } from '../session.js';
import { formatDate } from '../components/format.js';

interface ProviderCredential {
  id: string;
  provider: string;
  label: string | null;
  region: string | null;
  key_last4: string;
  status: string;
  checked_at: string;
  created_at: string;
  updated_at: string;
}

export const SPEECH_PROVIDERS: [string, string][] = [
  ['openai', 'OpenAI'],
  ['elevenlabs', 'ElevenLabs'],
  ['cartesia', 'Cartesia'],
  ['deepgram', 'Deepgram'],
  ['azure', 'Azure Speech'],
  ['sarvam', 'Sarvam'],
  ['assemblyai', 'AssemblyAI'],
];
const providerName = (p: string) => SPEECH_PROVIDERS.find(([v]) => v === p)?.[1] ?? p;

/** A 502 means the provider did not answer the check: said so, since nothing was stored. */
function checkError(err: unknown): ApiError {
  const e = err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err));
  if (e.status === 502)
    return new ApiError(
      e.status,
      e.code,
      `The provider did not answer the key check, so nothing was saved. Try again in a moment. (${e.message})`,
      e.details,
    );
  return e;
}

function KeyForm({
  credential,
  taken,
  onDone,
  onCancel,
}: {
  credential: ProviderCredential | null;
  taken: string[];
  onDone: (message: string) => void;
  onCancel?: () => void;
}) {
  const free = SPEECH_PROVIDERS.filter(([p]) => !taken.includes(p));
  const [d, setD] = useState({
    provider: credential?.provider ?? free[0]?.[0] ?? '',
    api_key: '',
    region: credential?.region ?? '',
    label: credential?.label ?? '',
  });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const azure = d.provider === 'azure';
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (credential) {
        await v2.put(`/provider-credentials/${encodeURIComponent(credential.id)}`, {
          api_key: d.api_key.trim(),
          ...(azure && d.region.trim() ? { region: d.region.trim() } : {}),
        });
        onDone(`The new ${providerName(d.provider)} key was accepted and is in use for new calls.`);
      } else {
        await v2.post('/provider-credentials', {
          provider: d.provider,
          api_key: d.api_key.trim(),
          ...(azure ? { region: d.region.trim() || null } : {}),
          ...(d.label.trim() ? { label: d.label.trim() } : {}),
        });
        onDone(`The ${providerName(d.provider)} key was accepted and stored.`);
      }
    } catch (err) {
      setError(checkError(err));
    } finally {
      setBusy(false);
    }
  };
  if (!credential && free.length === 0) return <p class="muted">The account has a key for every provider.</p>;
  return (
    <form
      class={credential ? 'inline-form' : 'card'}
      onSubmit={submit}
      noValidate
      aria-label={credential ? `Rotate the ${providerName(credential.provider)} key` : 'Add a provider key'}
    >
      {!credential && <h3>Add a key</h3>}
      <FormErrorNotice error={error} />
      {!credential && (
        <Select
          label="Provider"
          name="provider"
          error={error}
          value={d.provider}
          onChange={(v) => setD({ ...d, provider: v })}
          options={free}
        />
      )}
      <TextInput
        label={credential ? `New ${providerName(credential.provider)} key` : 'API key'}
        name="api_key"
        type="password"
        error={error}
        hint="Checked with the provider before it is stored; never shown again"
        value={d.api_key}
        onChange={(v) => setD({ ...d, api_key: v })}
      />
      {azure && (
        <TextInput
          label="Azure region"
          name="region"
          error={error}
          hint={
            credential ? 'e.g. centralindia; empty: unchanged' : 'The region of the key, e.g. centralindia'
          }
          value={d.region}
          onChange={(v) => setD({ ...d, region: v })}
        />
      )}
      {!credential && (
        <TextInput
          label="Label"
          name="label"
          error={error}
          hint="Optional, e.g. Production ElevenLabs"
          value={d.label}
          onChange={(v) => setD({ ...d, label: v })}
        />
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Checking the key…' : credential ? 'Check and replace' : 'Check and save'}
      </button>{' '}
      {onCancel && (
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}

export function ProviderKeysPage({ session }: { session: Session }) {
  const keys = useLoad(
    () => v2.get<{ provider_credentials: ProviderCredential[] }>('/provider-credentials'),
    [],
  );
  const [rotating, setRotating] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const write = can.write(session);
  const done = (message: string) => {
    setRotating(null);
    setNotice(message);
    keys.reload();
  };
  return (
    <>
      <h2>Provider keys</h2>
      <p class="muted">
        Your own keys for the speech providers. Voices and transcribers of a provider you have a key for run
        on it, in calls started afterwards; without one, the platform’s key serves where your plan includes
        it.
      </p>
      <p role="status" class="ok">
        {notice}
      </p>
      <ErrorNotice error={error} />
      <LoadState loaded={keys}>
        {(l) => (
          <>
            {write && (
              <KeyForm
                key={l.provider_credentials.map((c) => c.provider).join()}
                credential={null}
                taken={l.provider_credentials.map((c) => c.provider)}
                onDone={done}
              />
            )}
            <table>
              <caption class="sr-only">Provider keys</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Key</th>
                  <th scope="col">Label</th>
                  <th scope="col">Last accepted</th>
                  {write && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {l.provider_credentials.map((c) => (
                  <tr key={c.id}>
                    <td>
                      {providerName(c.provider)}
                      {c.region && <div class="muted small">region {c.region}</div>}
                    </td>
                    <td>
                      <code>{c.key_last4}</code>
                    </td>
                    <td>{c.label ?? '—'}</td>
                    <td>{formatDate(c.checked_at)}</td>
                    {write && (
                      <td>
                        {rotating === c.id ? (
                          <KeyForm
                            credential={c}
                            taken={[]}
                            onDone={done}
                            onCancel={() => setRotating(null)}
                          />
                        ) : (
                          <div class="row">
                            <button
                              type="button"
                              class="secondary"
                              aria-label={`Rotate the ${providerName(c.provider)} key`}
                              onClick={() => {
                                setNotice('');
                                setRotating(c.id);
                              }}
                            >
                              Rotate
                            </button>
                            <button
                              type="button"
                              class="danger"
                              aria-label={`Delete the ${providerName(c.provider)} key`}
                              onClick={() =>
                                window.confirm(
                                  `Delete the ${providerName(c.provider)} key? Calls started afterwards use the platform’s key where your plan includes it.`,
                                ) &&
                                runAction(
                                  setError,
                                  () => v2.del(`/provider-credentials/${encodeURIComponent(c.id)}`),
                                  () => done(`The ${providerName(c.provider)} key was deleted.`),
                                )
                              }
                            >
                              Delete
                            </button>
                          </div>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
                {l.provider_credentials.length === 0 && (
                  <tr>
                    <td colSpan={write ? 5 : 4} class="muted">
                      No provider keys: the platform’s keys serve where your plan includes them.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </>
        )}
      </LoadState>
    </>
  );
}
