// Lifecycle hooks: your HTTPS endpoint asked before a call (pre-call: it may add variables or stop the call)
// or told after it (post-call), for one agent or the whole account. Create (secret shown once), change,
// rotate the secret, delete, and their requests in the integration log.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../../api.js';
import { Checkbox, FormErrorNotice, Select, TextInput } from '../../components/inputs.js';
import { loadAgentNames } from '../../components/names.js';
import { SecretOnce } from '../../components/secret.js';
import { ErrorNotice, LoadState, runAction, useLoad } from '../../components/ui.js';
import { linkProps } from '../../router.js';

interface Hook {
  id: string;
  event: 'pre_call' | 'post_call';
  agent_id: string | null;
  url: string;
  timeout_ms: number;
  failure_action: 'continue' | 'block' | null;
  enabled: boolean;
}

const EVENTS: [string, string][] = [
  ['pre_call', 'Before each call (pre-call)'],
  ['post_call', 'After each call (post-call)'],
];
const TIMEOUTS = { pre_call: [500, 3000, 2000], post_call: [500, 30000, 10000] } as const;

function HookForm({
  hook,
  agents,
  onDone,
  onSecret,
}: {
  hook: Hook | null;
  agents: Map<string, string>;
  onDone: () => void;
  onSecret: (secret: string) => void;
}) {
  const [d, setD] = useState({
    event: hook?.event ?? 'pre_call',
    agent_id: hook?.agent_id ?? '',
    url: hook?.url ?? '',
    timeout_ms: hook ? String(hook.timeout_ms) : '',
    failure_action: hook?.failure_action ?? 'continue',
    enabled: hook?.enabled ?? true,
  });
  const [error, setError] = useState<ApiError | null>(null);
  const bounds = TIMEOUTS[d.event];
  const submit = async (e: Event) => {
    e.preventDefault();
    const timeout = d.timeout_ms.trim() === '' ? undefined : Number(d.timeout_ms);
    if (timeout !== undefined && (!Number.isInteger(timeout) || timeout < bounds[0] || timeout > bounds[1])) {
      setError(
        new ApiError(400, 'VALIDATION_ERROR', 'Some fields need attention', [
          {
            field: 'timeout_ms',
            message: `The timeout must be a whole number from ${bounds[0]} to ${bounds[1]}`,
          },
        ]),
      );
      return;
    }
    const common = {
      url: d.url.trim(),
      ...(timeout !== undefined ? { timeout_ms: timeout } : {}),
      ...(d.event === 'pre_call' ? { failure_action: d.failure_action } : {}),
      enabled: d.enabled,
    };
    await runAction(
      setError,
      async () => {
        if (hook) await v2.patch(`/lifecycle-hooks/${encodeURIComponent(hook.id)}`, common);
        else {
          const created = await v2.post<{ secret: string }>('/lifecycle-hooks', {
            event: d.event,
            agent_id: d.agent_id || null,
            ...common,
          });
          onSecret(created.secret);
        }
      },
      onDone,
    );
  };
  const prefix = hook ? `hook-${hook.id}` : 'hook-new';
  return (
    <form
      class={hook ? '' : 'card'}
      onSubmit={submit}
      noValidate
      aria-label={hook ? 'Change the hook' : 'New lifecycle hook'}
    >
      {!hook && <h4>New lifecycle hook</h4>}
      <FormErrorNotice error={error} />
      {!hook && (
        <div class="row">
          <Select
            label="When"
            name="event"
            error={error}
            value={d.event}
            onChange={(v) => setD({ ...d, event: v as Hook['event'] })}
            options={EVENTS}
          />
          <Select
            label="For"
            name="agent_id"
            error={error}
            value={d.agent_id}
            onChange={(v) => setD({ ...d, agent_id: v })}
            options={[
              ['', 'Every agent without a hook of its own'],
              ...[...agents.entries()].map(([id, n]): [string, string] => [id, n]),
            ]}
          />
        </div>
      )}
      <TextInput
        label="HTTPS URL"
        name="url"
        type="url"
        error={error}
        value={d.url}
        onChange={(v) => setD({ ...d, url: v })}
      />
      <div class="row">
        <TextInput
          label="Timeout (ms)"
          name="timeout_ms"
          type="number"
          error={error}
          hint={`${bounds[0]} to ${bounds[1]}; empty: ${hook ? 'unchanged' : bounds[2]}`}
          value={d.timeout_ms}
          onChange={(v) => setD({ ...d, timeout_ms: v })}
        />
        {d.event === 'pre_call' && (
          <Select
            label="If the hook fails"
            name="failure_action"
            error={error}
            value={d.failure_action}
            onChange={(v) => setD({ ...d, failure_action: v as 'continue' | 'block' })}
            options={[
              ['continue', 'Go on with the call'],
              ['block', 'Do not place or answer the call'],
            ]}
          />
        )}
      </div>
      <Checkbox
        label="Enabled"
        name={`${prefix}-enabled`}
        checked={d.enabled}
        onChange={(v) => setD({ ...d, enabled: v })}
      />
      <button type="submit">{hook ? 'Save hook' : 'Create hook'}</button>
    </form>
  );
}

export function LifecycleHooks({ write }: { write: boolean }) {
  const hooks = useLoad(() => v2.get<{ hooks: Hook[] }>('/lifecycle-hooks'), []);
  const agents = useLoad(loadAgentNames, []);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const names = agents.data ?? new Map<string, string>();
  const act = (fn: () => Promise<unknown>) => runAction(setError, fn, hooks.reload);
  const scope = (h: Hook) =>
    h.agent_id ? (names.get(h.agent_id) ?? 'a deleted agent') : 'every agent without its own';
  return (
    <section aria-labelledby="hooks-h">
      <div class="row">
        <h3 id="hooks-h">Lifecycle hooks</h3>
        {write && !creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New hook
          </button>
        )}
      </div>
      <p class="muted">
        A pre-call hook is asked before each call is placed or answered and may add variables or stop it; a
        post-call hook receives the call’s outcome afterwards.
      </p>
      {secret && (
        <SecretOnce
          title={secret.title}
          secret={secret.value}
          use="Your endpoint checks each request’s signature with it."
          onDone={() => setSecret(null)}
        />
      )}
      <ErrorNotice error={error} />
      {creating && (
        <HookForm
          hook={null}
          agents={names}
          onSecret={(s) => setSecret({ title: 'Hook created: its signing secret', value: s })}
          onDone={() => {
            setCreating(false);
            hooks.reload();
          }}
        />
      )}
      <LoadState loaded={hooks}>
        {(l) => (
          <table>
            <caption class="sr-only">Lifecycle hooks</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">For</th>
                <th scope="col">URL</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {l.hooks.map((h) => (
                <tr key={h.id}>
                  <td>{h.event === 'pre_call' ? 'Before each call' : 'After each call'}</td>
                  <td>{scope(h)}</td>
                  <td>
                    <code class="wrap">{h.url}</code>
                    <div class="muted small">
                      timeout {h.timeout_ms} ms
                      {h.failure_action
                        ? ` · on failure: ${h.failure_action === 'block' ? 'stop the call' : 'go on'}`
                        : ''}
                    </div>
                    {editing === h.id && (
                      <HookForm
                        hook={h}
                        agents={names}
                        onSecret={() => undefined}
                        onDone={() => {
                          setEditing(null);
                          hooks.reload();
                        }}
                      />
                    )}
                  </td>
                  <td>
                    <span class="badge">{h.enabled ? 'enabled' : 'disabled'}</span>
                  </td>
                  <td>
                    <a {...linkProps(`/tools/logs?hook_id=${encodeURIComponent(h.id)}`)}>Requests</a>
                    {write && (
                      <div class="row">
                        <button
                          type="button"
                          class="secondary"
                          aria-expanded={editing === h.id}
                          aria-label={`Change the ${h.event === 'pre_call' ? 'pre-call' : 'post-call'} hook for ${scope(h)}`}
                          onClick={() => setEditing(editing === h.id ? null : h.id)}
                        >
                          Change
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          onClick={() =>
                            act(async () => {
                              const r = await v2.post<{ secret: string }>(
                                `/lifecycle-hooks/${encodeURIComponent(h.id)}/rotate-secret`,
                              );
                              setSecret({ title: 'New signing secret of the hook', value: r.secret });
                            })
                          }
                        >
                          Rotate secret
                        </button>
                        <button
                          type="button"
                          class="danger"
                          onClick={() =>
                            window.confirm('Delete this hook?') &&
                            act(() => v2.del(`/lifecycle-hooks/${encodeURIComponent(h.id)}`))
                          }
                        >
                          Delete
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
              {l.hooks.length === 0 && (
                <tr>
                  <td colSpan={5} class="muted">
                    No lifecycle hooks.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </LoadState>
    </section>
  );
}
