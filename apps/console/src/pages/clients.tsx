// Clients, for a reseller: its client accounts (name, status, balance, rate card, concurrency limit), creating
// one (its first API key shown once), and per client: funding from the reseller's balance (confirmed first),
// editing, suspending and resuming, usage over a range and its API keys. Everything goes through the public
// API's /clients routes, so the console holds no rule of its own; the API's field messages show at the fields.
import { useState } from 'preact/hooks';
import { ApiError, newIdempotencyKey, v2 } from '../api.js';
import { DailyBars } from '../components/charts.js';
import { formatDate, inr } from '../components/format.js';
import { CopyButton, ErrorNotice, Field, LoadState, Pager, runAction, useLoad } from '../components/ui.js';
import { linkProps } from '../router.js';
import { can, Session } from '../session.js';
import { DAY, everyDay, isoDay, UsageBucket } from './ledger.js';

export interface Client {
  id: string;
  name: string;
  email: string | null;
  status: 'approved' | 'pending' | 'suspended';
  suspended_by: 'operator' | 'reseller' | 'reseller_account' | null;
  balance_inr: number;
  concurrency_limit: number;
  price_per_minute_inr: number | null;
  created_at: string;
}

interface ClientKey {
  id: string;
  prefix: string;
  name: string | null;
  scopes: string[] | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A key the API answered once: shown with a copy button and the warning that it will not be shown again. */
function KeyOnce({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <section class="card notice" aria-labelledby="client-key-h" role="status">
      <h3 id="client-key-h">{title}</h3>
      <p>
        <strong>Copy it now: it is shown only once.</strong> Give it to your client over a safe channel; it
        has full access to the client’s account unless scopes were chosen.
      </p>
      <p class="secret" data-testid="client-key">
        {secret}
      </p>
      <CopyButton text={secret} label="Copy key" />{' '}
      <button type="button" class="secondary" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}

function statusText(c: Client): string {
  if (c.status !== 'suspended') return c.status === 'approved' ? 'active' : c.status;
  if (c.suspended_by === 'reseller') return 'suspended by you';
  if (c.suspended_by === 'reseller_account') return 'suspended with your account';
  return 'suspended by the platform';
}

const rateCard = (c: Client) =>
  c.price_per_minute_inr === null ? 'platform price' : `${inr(c.price_per_minute_inr)} / min`;

/** A number input's value for the API: undefined when empty (left out), else the number. */
const numberOrUndefined = (s: string) => (s.trim() === '' ? undefined : Number(s));

export function ClientsPage({ session, id }: { session: Session; id?: string }) {
  if (!session.account.reseller)
    return (
      <>
        <h2>Clients</h2>
        <p>Only a reseller account manages clients.</p>
      </>
    );
  return id ? <ClientPage session={session} id={id} /> : <ClientList session={session} />;
}

function ClientList({ session }: { session: Session }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const clients = useLoad(
    () => v2.get<{ clients: Client[]; next_cursor: string | null }>('/clients', { cursor, limit: 50 }),
    [cursor],
  );
  const [form, setForm] = useState({ name: '', email: '', limit: '', rate: '' });
  const [error, setError] = useState<ApiError | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const set = (k: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, [k]: e.currentTarget.value });
  const create = async (e: Event) => {
    e.preventDefault();
    await runAction(
      setError,
      async () => {
        const res = await v2.post<{ client: Client; api_key: string }>('/clients', {
          name: form.name,
          ...(form.email.trim() ? { email: form.email.trim() } : {}),
          concurrency_limit: numberOrUndefined(form.limit),
          price_per_minute_inr: numberOrUndefined(form.rate),
        });
        setCreated({ name: res.client.name, key: res.api_key });
        setForm({ name: '', email: '', limit: '', rate: '' });
      },
      clients.reload,
    );
  };
  return (
    <>
      <h2>Clients</h2>
      <p class="muted">
        Each client is an account of its own: its agents, calls, keys and balance. You fund it from your
        balance and it pays its rate card for each minute; your margin is credited to your ledger.
      </p>
      {created && (
        <KeyOnce
          title={`The first API key of “${created.name}”`}
          secret={created.key}
          onDone={() => setCreated(null)}
        />
      )}
      {can.write(session) && (
        <form class="card" onSubmit={create} aria-labelledby="new-client-h" noValidate>
          <h3 id="new-client-h">Create a client</h3>
          <ErrorNotice error={error} />
          <Field label="Name" name="name" error={error}>
            {(p) => <input {...p} required value={form.name} onInput={set('name')} />}
          </Field>
          <Field label="Contact email (optional)" name="email" error={error}>
            {(p) => <input {...p} type="email" value={form.email} onInput={set('email')} />}
          </Field>
          <Field
            label="Concurrency limit (optional)"
            name="concurrency_limit"
            error={error}
            hint="Calls at once; at most your own limit. Default 5."
          >
            {(p) => <input {...p} type="number" min="1" value={form.limit} onInput={set('limit')} />}
          </Field>
          <Field
            label="Rate card, INR a minute (optional)"
            name="price_per_minute_inr"
            error={error}
            hint="What the client pays a minute; at least the platform’s price. Empty: the platform’s price."
          >
            {(p) => <input {...p} type="number" step="0.01" value={form.rate} onInput={set('rate')} />}
          </Field>
          <p>
            <button type="submit">Create client</button>
          </p>
        </form>
      )}
      <LoadState loaded={clients}>
        {(page) => (
          <>
            <table>
              <caption class="muted">Your clients, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Balance</th>
                  <th scope="col">Rate card</th>
                  <th scope="col">Concurrency limit</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.clients.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <a {...linkProps(`/clients/${c.id}`)}>{c.name}</a>
                    </td>
                    <td>
                      <span class="badge">{statusText(c)}</span>
                    </td>
                    <td>{inr(c.balance_inr)}</td>
                    <td>{rateCard(c)}</td>
                    <td>{c.concurrency_limit}</td>
                    <td>{formatDate(c.created_at)}</td>
                  </tr>
                ))}
                {page.clients.length === 0 && (
                  <tr>
                    <td colSpan={6} class="muted">
                      No clients yet.
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

function ClientPage({ session, id }: { session: Session; id: string }) {
  const client = useLoad(() => v2.get<Client>(`/clients/${id}`), [id]);
  return (
    <>
      <p>
        <a {...linkProps('/clients')}>← All clients</a>
      </p>
      <LoadState loaded={client}>
        {(c) => (
          <>
            <h2>{c.name}</h2>
            <p>
              <span class="badge">{statusText(c)}</span> · Balance{' '}
              <strong data-testid="client-balance">{inr(c.balance_inr)}</strong> · Rate card {rateCard(c)} ·
              Concurrency limit {c.concurrency_limit}
            </p>
            {can.write(session) && (
              <>
                <StatusCard client={c} onChanged={client.reload} />
                <FundCard client={c} onFunded={client.reload} />
                <EditCard key={c.id} client={c} onSaved={client.reload} />
              </>
            )}
            <UsageCard client={c} />
            <KeysCard client={c} manage={can.manageKeys(session)} />
          </>
        )}
      </LoadState>
    </>
  );
}

function StatusCard({ client, onChanged }: { client: Client; onChanged: () => void }) {
  const [error, setError] = useState<ApiError | null>(null);
  const act = (what: 'suspend' | 'resume') =>
    runAction(setError, () => v2.post(`/clients/${client.id}/${what}`), onChanged);
  return (
    <section class="card" aria-labelledby="status-h">
      <h3 id="status-h">Status</h3>
      <ErrorNotice error={error} />
      {client.status === 'approved' && (
        <>
          <p>Suspending stops the client’s keys, console and calls until you resume it.</p>
          <button
            class="danger"
            onClick={() =>
              window.confirm(`Suspend ${client.name}? Its keys and calls stop at once.`) && act('suspend')
            }
          >
            Suspend client
          </button>
        </>
      )}
      {client.status === 'suspended' && client.suspended_by === 'reseller' && (
        <button onClick={() => act('resume')}>Resume client</button>
      )}
      {client.status !== 'approved' && client.suspended_by !== 'reseller' && (
        <p class="muted">The platform holds this client; only the platform operator can lift it.</p>
      )}
    </section>
  );
}

function FundCard({ client, onFunded }: { client: Client; onFunded: () => void }) {
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // One key per reviewed transfer: confirming again after a lost answer replays it instead of moving twice.
  const [transferKey, setTransferKey] = useState<string | null>(null);
  const review = (e: Event) => {
    e.preventDefault();
    setDone(null);
    setError(null);
    setTransferKey((key) => key ?? newIdempotencyKey());
    setConfirming(true);
  };
  const fund = async () => {
    setConfirming(false);
    let moved: { amount_inr: number; reseller_balance_inr: number } | null = null;
    const ok = await runAction(
      setError,
      async () => {
        moved = await v2.post(
          `/clients/${client.id}/fund`,
          { amount_inr: Number(amount) },
          transferKey ? { 'idempotency-key': transferKey } : undefined,
        );
      },
      onFunded,
    );
    if (ok && moved) {
      const m = moved as { amount_inr: number; reseller_balance_inr: number };
      setDone(`Moved ${inr(m.amount_inr)}. Your balance is now ${inr(m.reseller_balance_inr)}.`);
      setAmount('');
      setTransferKey(null);
    }
  };
  return (
    <form class="card" onSubmit={review} aria-labelledby="fund-h" noValidate>
      <h3 id="fund-h">Fund</h3>
      <p class="muted">Moves money from your balance to the client’s.</p>
      <ErrorNotice error={error} />
      <Field label="Amount, INR" name="amount_inr" error={error}>
        {(p) => (
          <input
            {...p}
            type="number"
            step="0.01"
            min="0.01"
            required
            value={amount}
            onInput={(e) => {
              setAmount(e.currentTarget.value);
              setConfirming(false);
              // Another amount is another transfer.
              setTransferKey(null);
            }}
          />
        )}
      </Field>
      {!confirming && (
        <p>
          <button type="submit">Fund…</button>
        </p>
      )}
      {confirming && (
        <div role="group" aria-labelledby="fund-confirm">
          <p id="fund-confirm">
            Move <strong>{inr(Number(amount))}</strong> from your balance to {client.name}?
          </p>
          <button type="button" onClick={fund}>
            Confirm funding
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      <p role="status">{done ?? ''}</p>
    </form>
  );
}

function EditCard({ client, onSaved }: { client: Client; onSaved: () => void }) {
  const [form, setForm] = useState({
    name: client.name,
    email: client.email ?? '',
    limit: String(client.concurrency_limit),
    rate: client.price_per_minute_inr === null ? '' : String(client.price_per_minute_inr),
  });
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const set = (k: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) => {
    setSaved(false);
    setForm({ ...form, [k]: e.currentTarget.value });
  };
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    const ok = await runAction(
      setError,
      () =>
        v2.patch(`/clients/${client.id}`, {
          name: form.name,
          email: form.email.trim() === '' ? null : form.email.trim(),
          concurrency_limit: form.limit.trim() === '' ? undefined : Number(form.limit),
          price_per_minute_inr: form.rate.trim() === '' ? null : Number(form.rate),
        }),
      onSaved,
    );
    setSaved(ok);
  };
  return (
    <form class="card" onSubmit={save} aria-labelledby="edit-h" noValidate>
      <h3 id="edit-h">Details</h3>
      <ErrorNotice error={error} />
      <Field label="Name" name="name" error={error}>
        {(p) => <input {...p} required value={form.name} onInput={set('name')} />}
      </Field>
      <Field label="Contact email" name="email" error={error}>
        {(p) => <input {...p} type="email" value={form.email} onInput={set('email')} />}
      </Field>
      <Field label="Concurrency limit" name="concurrency_limit" error={error} hint="At most your own limit.">
        {(p) => <input {...p} type="number" min="1" value={form.limit} onInput={set('limit')} />}
      </Field>
      <Field
        label="Rate card, INR a minute"
        name="price_per_minute_inr"
        error={error}
        hint="Empty: the platform’s price. Applies to calls charged from now on."
      >
        {(p) => <input {...p} type="number" step="0.01" value={form.rate} onInput={set('rate')} />}
      </Field>
      <p>
        <button type="submit">Save</button> <span role="status">{saved ? 'Saved.' : ''}</span>
      </p>
    </form>
  );
}

interface Usage {
  buckets: UsageBucket[];
  totals: { minutes: number; calls: number; credits_inr: number };
}

function UsageCard({ client }: { client: Client }) {
  const [from, setFrom] = useState(isoDay(new Date(Date.now() - 29 * DAY)));
  const [to, setTo] = useState(isoDay(new Date()));
  const usage = useLoad(
    () =>
      v2.get<Usage>(`/clients/${client.id}/usage`, {
        from: `${from}T00:00:00.000Z`,
        to: new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY).toISOString(),
        group_by: 'day',
      }),
    [client.id, from, to],
  );
  return (
    <section class="card" aria-labelledby="usage-h">
      <h3 id="usage-h">Usage</h3>
      <div class="row">
        <div class="field">
          <label for="u-from">From</label>
          <input id="u-from" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="u-to">To</label>
          <input id="u-to" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        </div>
      </div>
      <LoadState loaded={usage}>
        {(u) => (
          <>
            <p data-testid="client-usage">
              <strong>{u.totals.minutes}</strong> minutes · <strong>{u.totals.calls}</strong> calls ·{' '}
              <strong>{inr(u.totals.credits_inr)}</strong> charged at its rate card
            </p>
            <DailyBars days={everyDay(from, to, u.buckets)} label="Client charges" unit="INR" />
          </>
        )}
      </LoadState>
    </section>
  );
}

function KeysCard({ client, manage }: { client: Client; manage: boolean }) {
  const keys = useLoad(
    () => v2.get<{ api_keys: ClientKey[] }>(`/clients/${client.id}/api-keys`),
    [client.id],
  );
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    await runAction(
      setError,
      async () => {
        const res = await v2.post<{ api_key: string; key: ClientKey }>(`/clients/${client.id}/api-keys`, {
          name,
        });
        setCreated({ name: res.key.name ?? name, key: res.api_key });
        setName('');
      },
      keys.reload,
    );
  };
  const revoke = (k: ClientKey) =>
    window.confirm(`Revoke the key "${k.name ?? k.prefix}"? The client's requests with it stop at once.`) &&
    runAction(setError, () => v2.del(`/clients/${client.id}/api-keys/${k.id}`), keys.reload);
  return (
    <section class="card" aria-labelledby="keys-h">
      <h3 id="keys-h">API keys of {client.name}</h3>
      {created && (
        <KeyOnce title={`New key “${created.name}”`} secret={created.key} onDone={() => setCreated(null)} />
      )}
      <ErrorNotice error={error} />
      {manage && (
        <form onSubmit={create} aria-label="Create a key for the client" noValidate>
          <Field label="Key name" name="name" error={error}>
            {(p) => <input {...p} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <p>
            <button type="submit">Create key</button>
          </p>
        </form>
      )}
      <LoadState loaded={keys}>
        {(k) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {k.api_keys.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{key.scopes ? key.scopes.join(', ') : 'full access'}</td>
                  <td>{formatDate(key.created_at)}</td>
                  <td>{formatDate(key.last_used_at)}</td>
                  <td>
                    {key.revoked_at ? (
                      `revoked ${formatDate(key.revoked_at)}`
                    ) : manage ? (
                      <button
                        class="danger"
                        onClick={() => revoke(key)}
                        aria-label={`Revoke ${key.name ?? key.prefix}`}
                      >
                        Revoke
                      </button>
                    ) : (
                      'active'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadState>
    </section>
  );
}
