// The partner's customers (sub-tenants) and, per customer, its connections to the connectors: status, the
// connector by name, times; a connect link to send the customer (shown once, with its expiry) and Disconnect.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../../api.js';
import { formatDate, words } from '../../components/format.js';
import { FormErrorNotice, Select, TextInput } from '../../components/inputs.js';
import { CopyButton, ErrorNotice, LoadState, Pager, runAction, useLoad } from '../../components/ui.js';
import type { Connector } from './connector-model.js';

interface Customer {
  id: string;
  external_id: string;
  name: string;
  email: string | null;
  status: 'ACTIVE' | 'ARCHIVED';
  created_at: string;
}

interface Connection {
  id: string;
  connector_id: string;
  connector_type: 'oauth2' | 'api_key';
  status: 'pending' | 'connected' | 'expired' | 'revoked' | 'error' | 'reconnect_required';
  connected_at: string | null;
  expires_at: string | null;
  scopes: string[];
  last_refreshed_at: string | null;
  error: string | null;
  link_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

interface ConnectLink {
  connection: Connection;
  connect_url: string;
  expires_at: string;
}

const PAGE_SIZE = 25;

/** What each status means to the partner, beside its badge. */
const STATUS_HELP: Record<Connection['status'], string> = {
  pending: 'Link sent, not completed yet',
  connected: 'Usable by your functions',
  expired: 'The link or the access ran out: send a new link',
  revoked: 'The provider refused the refresh: the customer must connect again',
  error: 'The last attempt to connect failed',
  reconnect_required:
    'The connector’s token, revocation or sign-in URL changed: the customer’s tokens were dropped, send a new link',
};
const STATUS_CLASS: Record<Connection['status'], string> = {
  pending: '',
  connected: 'outcome-success',
  expired: 'outcome-refused',
  revoked: 'outcome-refused',
  error: 'outcome-refused',
  reconnect_required: 'outcome-refused',
};

function NewCustomerForm({ onDone, onCancel }: { onDone: (c: Customer) => void; onCancel: () => void }) {
  const [d, setD] = useState({ name: '', external_id: '', email: '' });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const problems = [
      ...(d.name.trim() ? [] : [{ field: 'name', message: 'The customer’s name is required' }]),
      ...(d.external_id.trim()
        ? []
        : [{ field: 'external_id', message: 'Your own id for the customer is required' }]),
    ];
    if (problems.length) {
      setError(new ApiError(400, 'VALIDATION_ERROR', 'Some fields need attention', problems));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onDone(
        await v2.post<Customer>('/customers', {
          name: d.name.trim(),
          external_id: d.external_id.trim(),
          ...(d.email.trim() ? { email: d.email.trim() } : {}),
        }),
      );
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="customer-form-h">
      <h4 id="customer-form-h">New customer</h4>
      <FormErrorNotice error={error} />
      <div class="row">
        <TextInput
          label="Customer name"
          name="name"
          required
          error={error}
          value={d.name}
          onChange={(v) => setD({ ...d, name: v })}
        />
        <TextInput
          label="Your id for the customer"
          name="external_id"
          required
          error={error}
          hint="Your own identifier, unique on the account"
          value={d.external_id}
          onChange={(v) => setD({ ...d, external_id: v })}
        />
        <TextInput
          label="Email (optional)"
          name="email"
          error={error}
          value={d.email}
          onChange={(v) => setD({ ...d, email: v })}
        />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create customer'}
      </button>{' '}
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

function LinkNotice({
  link,
  connectorName,
  onDone,
}: {
  link: ConnectLink;
  connectorName: string;
  onDone: () => void;
}) {
  return (
    <div class="card notice" role="status" aria-label="Connect link">
      <p>
        <strong>Send this link to the customer to connect {connectorName}.</strong> It works once, expires{' '}
        {formatDate(link.expires_at)}, and is shown only now; a new link replaces it.
      </p>
      <p class="secret" data-testid="connect-url">
        {link.connect_url}
      </p>
      <CopyButton text={link.connect_url} label="Copy link" />{' '}
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function CustomerConnections({
  customer,
  connectors,
  write,
}: {
  customer: Customer;
  connectors: Connector[];
  write: boolean;
}) {
  const connections = useLoad(
    () => v2.get<{ connections: Connection[] }>(`/customers/${encodeURIComponent(customer.id)}/connections`),
    [customer.id],
  );
  const [connectorId, setConnectorId] = useState('');
  const [link, setLink] = useState<ConnectLink | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const names = new Map(connectors.map((c) => [c.id, c.name]));
  const nameOf = (id: string) => names.get(id) ?? 'A deleted connector';
  const chosen = connectorId || connectors[0]?.id || '';

  const makeLink = async (e: Event) => {
    e.preventDefault();
    if (!chosen) return;
    setBusy(true);
    setNotice('');
    const made = await runAction(
      setError,
      async () =>
        setLink(
          await v2.post<ConnectLink>(`/customers/${encodeURIComponent(customer.id)}/connections`, {
            connector_id: chosen,
          }),
        ),
      connections.reload,
    );
    if (!made) setLink(null);
    setBusy(false);
  };
  const disconnect = (c: Connection) =>
    window.confirm(
      `Disconnect ${customer.name} from ${nameOf(c.connector_id)}? Its credential is deleted.`,
    ) &&
    runAction(
      setError,
      async () => {
        const r = await v2.del<{ revoked: boolean }>(
          `/customers/${encodeURIComponent(customer.id)}/connections/${encodeURIComponent(c.id)}`,
        );
        setNotice(
          `Disconnected from ${nameOf(c.connector_id)}.${r.revoked ? ' The provider confirmed the token is revoked.' : ''}`,
        );
      },
      connections.reload,
    );

  return (
    <div class="inline-form">
      <ErrorNotice error={error} />
      <p role="status" class="ok">
        {notice}
      </p>
      {link && (
        <LinkNotice
          link={link}
          connectorName={nameOf(link.connection.connector_id)}
          onDone={() => setLink(null)}
        />
      )}
      {write &&
        (connectors.length ? (
          <form class="row" onSubmit={makeLink} aria-label={`Connect link for ${customer.name}`}>
            <Select
              label="Connector"
              name="connector_id"
              error={error}
              value={chosen}
              onChange={setConnectorId}
              options={connectors.map((c) => [c.id, c.name])}
            />
            <button type="submit" disabled={busy}>
              {busy ? 'Creating…' : 'Create connect link'}
            </button>
          </form>
        ) : (
          <p class="muted">Create a connector above to send this customer a connect link.</p>
        ))}
      <LoadState loaded={connections}>
        {(l) =>
          l.connections.length === 0 ? (
            <p class="muted">{customer.name} has no connections yet.</p>
          ) : (
            <table class="compact">
              <caption class="sr-only">Connections of {customer.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Connector</th>
                  <th scope="col">Status</th>
                  <th scope="col">Connected</th>
                  <th scope="col">Access expires</th>
                  <th scope="col">Link expires</th>
                  {write && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {l.connections.map((c) => (
                  <tr key={c.id}>
                    <td>
                      {nameOf(c.connector_id)}
                      <div class="muted small">{c.connector_type === 'oauth2' ? 'OAuth 2.0' : 'API key'}</div>
                    </td>
                    <td>
                      <span class={`badge ${STATUS_CLASS[c.status] ?? ''}`}>{words(c.status)}</span>
                      <div class="muted small">{STATUS_HELP[c.status] ?? ''}</div>
                      {c.error && <div class="error small">{c.error}</div>}
                    </td>
                    <td>
                      {formatDate(c.connected_at)}
                      {c.last_refreshed_at && (
                        <div class="muted small">refreshed {formatDate(c.last_refreshed_at)}</div>
                      )}
                    </td>
                    <td>{formatDate(c.expires_at)}</td>
                    <td>{formatDate(c.link_expires_at)}</td>
                    {write && (
                      <td>
                        <button
                          type="button"
                          class="danger"
                          aria-label={`Disconnect ${customer.name} from ${nameOf(c.connector_id)}`}
                          onClick={() => disconnect(c)}
                        >
                          Disconnect
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
    </div>
  );
}

export function CustomersSection({ connectors, write }: { connectors: Connector[]; write: boolean }) {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState('ACTIVE');
  const customers = useLoad(
    () =>
      v2.get<{ customers: Customer[]; next_cursor: string | null }>('/customers', {
        cursor,
        limit: PAGE_SIZE,
        status,
      }),
    [cursor, status],
  );
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  return (
    <section aria-labelledby="customers-h">
      <h3 id="customers-h">Customers</h3>
      <p class="muted">
        Your customers, each connecting their own accounts through a link you send them. Calls made for a
        customer (with its <code>customer_id</code>) use its connections.
      </p>
      <p role="status" class="ok">
        {notice}
      </p>
      {write && !creating && (
        <p>
          <button
            type="button"
            onClick={() => {
              setNotice('');
              setCreating(true);
            }}
          >
            New customer
          </button>
        </p>
      )}
      {creating && (
        <NewCustomerForm
          onCancel={() => setCreating(false)}
          onDone={(c) => {
            setCreating(false);
            setNotice(`${c.name} was created.`);
            setCursor(undefined);
            setStatus('ACTIVE');
            setOpen(c.id);
            customers.reload();
          }}
        />
      )}
      <div class="row">
        <Select
          label="Show"
          name="status"
          value={status}
          onChange={(v) => {
            setCursor(undefined);
            setStatus(v);
          }}
          options={[
            ['ACTIVE', 'Active customers'],
            ['ARCHIVED', 'Archived customers'],
          ]}
        />
      </div>
      <LoadState loaded={customers}>
        {(page) => (
          <>
            {page.customers.length === 0 && (
              <p class="muted">
                {status === 'ACTIVE'
                  ? `No customers yet.${write ? ' Create one to send it a connect link.' : ''}`
                  : 'No archived customers.'}
              </p>
            )}
            {page.customers.map((c) => (
              <section class="card" key={c.id} aria-label={`Customer ${c.name}`}>
                <h4>
                  {c.name} {c.status === 'ARCHIVED' && <span class="badge">archived</span>}
                </h4>
                <p class="muted small">
                  Your id: <code>{c.external_id}</code>
                  {c.email ? ` · ${c.email}` : ''} · since {formatDate(c.created_at)}
                </p>
                <button
                  type="button"
                  class="secondary"
                  aria-expanded={open === c.id}
                  aria-label={`${open === c.id ? 'Hide' : 'Show'} connections of ${c.name}`}
                  onClick={() => setOpen(open === c.id ? null : c.id)}
                >
                  {open === c.id ? 'Hide connections' : 'Show connections'}
                </button>
                {open === c.id && <CustomerConnections customer={c} connectors={connectors} write={write} />}
              </section>
            ))}
            <Pager cursor={cursor} next={page.next_cursor} onPage={setCursor} />
          </>
        )}
      </LoadState>
    </section>
  );
}
