// Provider keys: the account's own keys for speech providers and model providers (one per provider), and its own
// model server. Each key is checked live with the provider before it is stored; a refusal is shown at the key in
// the provider's words. Keys are never shown again: the list has their last four characters. A model server's
// signing secret is shown once, when it is made.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { FormErrorNotice, Select, TextInput } from '../components/inputs.js';
import { CopyButton, ErrorNotice, LoadState, runAction, useLoad } from '../components/ui.js';
import { can, Session } from '../session.js';
import { formatDate } from '../components/format.js';
import { SPEECH_PROVIDERS } from '../components/speech-providers.js';

interface ProviderCredential {
  id: string;
  provider: string;
  label: string | null;
  region: string | null;
  /** A model server's URL (custom); null for the providers the platform knows. */
  base_url: string | null;
  /** What it serves: speech (voices, transcribers), models (agents' models), or both. */
  used_for: string[];
  key_last4: string | null;
  /** A model server's signing secret: in the answer that made it (or moved the server), never again. */
  signing_secret?: string;
  status: string;
  checked_at: string;
  created_at: string;
  updated_at: string;
}

/** Model providers that are not speech providers too (OpenAI's one key serves both), and the account's server. */
export const MODEL_ONLY_PROVIDERS: [string, string][] = [
  ['anthropic', 'Anthropic'],
  ['google', 'Google Gemini'],
  ['azure_openai', 'Azure OpenAI'],
  ['groq', 'Groq'],
  ['together', 'Together AI'],
  ['fireworks', 'Fireworks AI'],
  ['openrouter', 'OpenRouter'],
  ['deepseek', 'DeepSeek'],
  ['mistral', 'Mistral AI'],
  ['custom', 'Your model server'],
];

const ALL_PROVIDERS = [...SPEECH_PROVIDERS, ...MODEL_ONLY_PROVIDERS];
const providerName = (p: string) => ALL_PROVIDERS.find(([v]) => v === p)?.[1] ?? p;

/** What a provider's key serves, as the picker says it. */
function servesOf(provider: string): string {
  if (provider === 'openai') return 'speech and models';
  return SPEECH_PROVIDERS.some(([p]) => p === provider) ? 'speech' : 'models';
}

/**
 * A 502: the provider did not answer the check, or cannot be reached from this deployment. The API's message
 * says which, what to do (try again, or have the operator open the named host) and that nothing was saved.
 */
function checkError(err: unknown): ApiError {
  return err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err));
}

function KeyForm({
  credential,
  taken,
  onDone,
  onCancel,
}: {
  credential: ProviderCredential | null;
  taken: string[];
  /** `secret`: a model server's signing secret, to show once. */
  onDone: (message: string, secret?: { provider: string; value: string }) => void;
  onCancel?: () => void;
}) {
  const free = ALL_PROVIDERS.filter(([p]) => !taken.includes(p));
  const [d, setD] = useState({
    provider: credential?.provider ?? free[0]?.[0] ?? '',
    api_key: '',
    region: credential?.region ?? '',
    base_url: credential?.base_url ?? '',
    label: credential?.label ?? '',
  });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const azure = d.provider === 'azure';
  const azureOpenAi = d.provider === 'azure_openai';
  const server = d.provider === 'custom';
  const name = providerName(d.provider);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const key = d.api_key.trim();
    try {
      if (credential) {
        const moved = server && d.base_url.trim() !== (credential.base_url ?? '');
        const res = await v2.put<{ provider_credential: ProviderCredential }>(
          `/provider-credentials/${encodeURIComponent(credential.id)}`,
          {
            ...(key || !server ? { api_key: key } : {}),
            ...((azure || azureOpenAi) && d.region.trim() ? { region: d.region.trim() } : {}),
            ...(moved ? { base_url: d.base_url.trim() } : {}),
          },
        );
        const secret = res.provider_credential.signing_secret;
        onDone(
          server
            ? 'Your model server was checked and is in use for new calls.'
            : `The new ${name} key was accepted and is in use for new calls.`,
          secret ? { provider: d.provider, value: secret } : undefined,
        );
      } else {
        const res = await v2.post<{ provider_credential: ProviderCredential }>('/provider-credentials', {
          provider: d.provider,
          ...(key || !server ? { api_key: key } : {}),
          ...(azure || azureOpenAi ? { region: d.region.trim() || null } : {}),
          ...(server ? { base_url: d.base_url.trim() } : {}),
          ...(d.label.trim() ? { label: d.label.trim() } : {}),
        });
        const secret = res.provider_credential.signing_secret;
        onDone(
          server
            ? 'Your model server answered the check and was stored.'
            : `The ${name} key was accepted and stored.`,
          secret ? { provider: d.provider, value: secret } : undefined,
        );
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
          options={free.map(([p, label]) => [p, `${label} (${servesOf(p)})`])}
        />
      )}
      {server && (
        <TextInput
          label="Server URL"
          name="base_url"
          error={error}
          hint="Your OpenAI-compatible chat completions server, https, e.g. https://models.example.com/v1"
          value={d.base_url}
          onChange={(v) => setD({ ...d, base_url: v })}
        />
      )}
      <TextInput
        label={server ? 'Bearer token (optional)' : credential ? `New ${name} key` : 'API key'}
        name="api_key"
        type="password"
        error={error}
        hint={
          server
            ? 'Sent as Authorization: Bearer to your server; leave empty if it takes none'
            : 'Checked with the provider before it is stored; never shown again'
        }
        value={d.api_key}
        onChange={(v) => setD({ ...d, api_key: v })}
      />
      {(azure || azureOpenAi) && (
        <TextInput
          label={azure ? 'Azure region' : 'Azure OpenAI resource'}
          name="region"
          error={error}
          hint={
            azureOpenAi
              ? 'The resource name, as in https://{resource}.openai.azure.com'
              : credential
                ? 'e.g. centralindia; empty: unchanged'
                : 'The region of the key, e.g. centralindia'
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

/** A model server's signing secret, shown once: the page that made it is the only place it appears. */
function SigningSecret({ secret, onDismiss }: { secret: string; onDismiss: () => void }) {
  return (
    <section class="card" aria-labelledby="signing-secret-title">
      <h3 id="signing-secret-title">Your model server's signing secret</h3>
      <p>
        Every request to your server is signed with it (<code>X-Vap-Signature</code>, as custom functions
        are). Copy it now: you will not see it again.
      </p>
      <p>
        <code>{secret}</code> <CopyButton text={secret} label="Copy the signing secret" />
      </p>
      <button type="button" class="secondary" onClick={onDismiss}>
        I have stored it
      </button>
    </section>
  );
}

export function ProviderKeysPage({ session }: { session: Session }) {
  const keys = useLoad(
    () => v2.get<{ provider_credentials: ProviderCredential[] }>('/provider-credentials'),
    [],
  );
  const [rotating, setRotating] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const write = can.write(session);
  const done = (message: string, made?: { provider: string; value: string }) => {
    setRotating(null);
    setNotice(message);
    setSecret(made?.value ?? null);
    keys.reload();
  };
  return (
    <>
      <h2>Provider keys</h2>
      <p class="muted">
        Your own keys for speech and model providers, and your own model server. Voices, transcribers and
        agents’ models of a provider you have a key for run on it, in calls started afterwards; without one,
        the platform’s key serves where your plan includes it. Agents choose their model in the agent
        builder’s Model section.
      </p>
      <p role="status" class="ok">
        {notice}
      </p>
      {secret && <SigningSecret secret={secret} onDismiss={() => setSecret(null)} />}
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
                  <th scope="col">Serves</th>
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
                      {c.region && (
                        <div class="muted small">
                          {c.provider === 'azure_openai' ? 'resource' : 'region'} {c.region}
                        </div>
                      )}
                      {c.base_url && <div class="muted small">{c.base_url}</div>}
                    </td>
                    <td>{(c.used_for ?? []).join(' and ') || servesOf(c.provider)}</td>
                    <td>{c.key_last4 ? <code>{c.key_last4}</code> : <span class="muted">none</span>}</td>
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
                    <td colSpan={write ? 6 : 5} class="muted">
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
