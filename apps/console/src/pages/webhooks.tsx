// Webhook endpoints: create (the signing secret shown once), enable or disable, send a test, rotate the secret,
// delete; and each endpoint's delivery history with replay.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { CopyButton, ErrorNotice, Field, LoadState, useLoad, runAction } from '../components/ui.js';
import { can, Session } from '../session.js';
import { formatDate } from '../components/format.js';

interface Endpoint {
  id: string;
  label: string;
  url: string;
  enabled: boolean;
  agent_id: string | null;
  events: string[];
  last_delivery_status: string | null;
  disabled_reason: string | null;
}

interface Delivery {
  id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

export function WebhooksPage({ session }: { session: Session }) {
  const endpoints = useLoad(() => v2.get<{ endpoints: Endpoint[] }>('/config/webhooks'), []);
  const [form, setForm] = useState({ label: '', url: '' });
  const [error, setError] = useState<ApiError | null>(null);
  const [secret, setSecret] = useState<{ label: string; secret: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const write = can.write(session);
  const act = async (fn: () => Promise<unknown>, done?: string) => {
    setNotice(null);
    if ((await runAction(setError, fn, endpoints.reload)) && done) setNotice(done);
  };
  return (
    <>
      <h2>Webhooks</h2>
      <ErrorNotice error={error} />
      <p role="status" class="ok">
        {notice ?? ''}
      </p>
      {secret && (
        <div class="card" role="status">
          <p>
            Signing secret of <strong>{secret.label}</strong>, shown only now:
          </p>
          <p class="secret">{secret.secret}</p>
          <CopyButton text={secret.secret} label="Copy secret" />{' '}
          <button class="secondary" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      )}
      {write && (
        <form
          class="card"
          onSubmit={(e) => {
            e.preventDefault();
            void act(async () => {
              const created = await v2.post<{ label: string; secret: string }>('/config/webhooks', form);
              setSecret({ label: created.label, secret: created.secret });
              setForm({ label: '', url: '' });
            });
          }}
        >
          <h3>New endpoint</h3>
          <div class="row">
            <Field label="Label" name="label" error={error} hint="Lower case letters, digits and dashes">
              {(p) => (
                <input
                  {...p}
                  required
                  value={form.label}
                  onInput={(e) => setForm({ ...form, label: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field label="HTTPS URL" name="url" error={error}>
              {(p) => (
                <input
                  {...p}
                  type="url"
                  required
                  value={form.url}
                  onInput={(e) => setForm({ ...form, url: e.currentTarget.value })}
                />
              )}
            </Field>
            <button type="submit">Create endpoint</button>
          </div>
        </form>
      )}
      <LoadState loaded={endpoints}>
        {(list) => (
          <>
            {list.endpoints.map((ep) => (
              <section class="card" key={ep.id} aria-label={`Endpoint ${ep.label}`}>
                <h3>
                  {ep.label} <span class="badge">{ep.enabled ? 'enabled' : 'disabled'}</span>
                  {ep.agent_id && <span class="badge">agent {ep.agent_id}</span>}
                </h3>
                <p class="muted">
                  {ep.url} · last delivery: {ep.last_delivery_status ?? '—'}
                  {ep.disabled_reason ? ` · ${ep.disabled_reason}` : ''}
                </p>
                {write && (
                  <p class="row">
                    <button
                      class="secondary"
                      onClick={() =>
                        act(() => v2.post(`/config/webhooks/${ep.id}/test`), `Test event sent to ${ep.label}`)
                      }
                    >
                      Send test
                    </button>
                    <button
                      class="secondary"
                      onClick={() =>
                        act(() => v2.patch(`/config/webhooks/${ep.id}`, { enabled: !ep.enabled }))
                      }
                    >
                      {ep.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button
                      class="secondary"
                      onClick={() =>
                        act(async () => {
                          const r = await v2.post<{ secret: string }>(
                            `/config/webhooks/${ep.id}/rotate-secret`,
                          );
                          setSecret({ label: ep.label, secret: r.secret });
                        })
                      }
                    >
                      Rotate secret
                    </button>
                    <button
                      class="danger"
                      onClick={() =>
                        window.confirm(`Delete the endpoint ${ep.label}?`) &&
                        act(() => v2.del(`/config/webhooks/${ep.id}`))
                      }
                    >
                      Delete
                    </button>
                  </p>
                )}
                <button
                  class="secondary"
                  aria-expanded={open === ep.id}
                  onClick={() => setOpen(open === ep.id ? null : ep.id)}
                >
                  {open === ep.id ? 'Hide deliveries' : 'Show deliveries'}
                </button>
                {open === ep.id && <Deliveries endpointId={ep.id} write={write} />}
              </section>
            ))}
            {list.endpoints.length === 0 && <p class="muted">No endpoints yet.</p>}
          </>
        )}
      </LoadState>
    </>
  );
}

function Deliveries({ endpointId, write }: { endpointId: string; write: boolean }) {
  const deliveries = useLoad(
    () =>
      v2.get<{ deliveries: Delivery[]; next_cursor: string | null }>(
        `/config/webhooks/${endpointId}/deliveries`,
        { limit: 25 },
      ),
    [endpointId],
  );
  const [error, setError] = useState<ApiError | null>(null);
  return (
    <>
      <ErrorNotice error={error} />
      <LoadState loaded={deliveries}>
        {(page) => (
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                {write && <th scope="col">Replay</th>}
              </tr>
            </thead>
            <tbody>
              {page.deliveries.map((d) => (
                <tr key={d.id}>
                  <td>{formatDate(d.created_at)}</td>
                  <td>{d.event_type}</td>
                  <td>{d.status}</td>
                  <td>{d.attempts}</td>
                  <td>{d.last_status_code ?? d.last_error ?? '—'}</td>
                  {write && (
                    <td>
                      <button
                        class="secondary"
                        onClick={() =>
                          v2
                            .post(`/webhook-deliveries/${d.id}/retry`)
                            .then(deliveries.reload, (err: ApiError) => setError(err))
                        }
                      >
                        Send again
                      </button>
                    </td>
                  )}
                </tr>
              ))}
              {page.deliveries.length === 0 && (
                <tr>
                  <td colSpan={6} class="muted">
                    No deliveries yet.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </LoadState>
    </>
  );
}
