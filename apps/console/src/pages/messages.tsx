// Messages: send an SMS from one of the account's numbers, and the history (sent and received) with each
// message's status as the carrier reports it. The history follows messages still on their way (queued, sent)
// until they are final; a refresh that fails keeps what was shown and says so, and the next one can succeed.
// Above them, the account's message policy (sms-policy.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import { allPages, ApiError, v2 } from '../api.js';
import { AgentLink, useAgents } from '../components/agent-names.js';
import { formatDate, words } from '../components/format.js';
import { FormErrorNotice, Select, TextArea, TextInput } from '../components/inputs.js';
import { ErrorNotice, Pager, useLoad } from '../components/ui.js';
import { linkProps } from '../router.js';
import { can, Session } from '../session.js';
import { SmsPolicyCard } from './sms-policy.js';

interface Message {
  id: string;
  direction: 'outbound' | 'inbound';
  status: 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'received';
  to: string;
  from: string;
  body: string;
  segments: number;
  carrier: string;
  error_code: string | null;
  error_message: string | null;
  call_id: string | null;
  agent_id: string | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
}

interface MessageList {
  messages: Message[];
  next_cursor: string | null;
}

interface PhoneNumber {
  id: string;
  number: string;
  provider: string;
  label: string | null;
  is_default: boolean;
  status: 'active' | 'inactive';
}

const BODY_MAX = 1600;
const PAGE_SIZE = 25;
/** How often the history is read again while a message on it is still on its way. */
const FOLLOW_MS = 3000;
const STATUSES = ['queued', 'sent', 'delivered', 'undelivered', 'failed', 'received'];
const ON_ITS_WAY = new Set(['queued', 'sent']);
const E164 = /^\+[1-9]\d{6,14}$/;

const STATUS_CLASS: Record<string, string> = {
  delivered: 'outcome-success',
  received: 'outcome-success',
  undelivered: 'outcome-refused',
  failed: 'outcome-refused',
};

const CARRIERS: Record<string, string> = {
  sandbox: 'Sandbox',
  carrier_a: 'carrier_a',
  carrier_b: 'carrier_b',
};

const loadNumbers = () =>
  allPages(async (cursor) => {
    const page = await v2.get<{ phone_numbers: PhoneNumber[]; next_cursor: string | null }>(
      '/phone-numbers',
      {
        cursor,
        limit: 100,
      },
    );
    return { items: page.phone_numbers, next: page.next_cursor };
  });

/** The number's line in the From list: the number, its label and carrier. */
const numberLabel = (n: PhoneNumber) =>
  `${n.number}${n.label ? ` · ${n.label}` : ''} (${CARRIERS[n.provider] ?? n.provider}${n.is_default ? ', default' : ''})`;

function SendForm({ onSent }: { onSent: (m: Message) => void }) {
  const numbers = useLoad(loadNumbers, []);
  const [d, setD] = useState({ to: '', from: '', body: '' });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const active = (numbers.data ?? []).filter((n) => n.status === 'active');
  const submit = async (e: Event) => {
    e.preventDefault();
    const to = d.to.replace(/[\s()-]/g, '');
    const problems = [
      ...(E164.test(to)
        ? []
        : [{ field: 'to', message: 'Enter the number in international format, e.g. +919876543210' }]),
      ...(d.body.trim() ? [] : [{ field: 'body', message: 'Write the message' }]),
      ...(d.body.length > BODY_MAX
        ? [{ field: 'body', message: `The message must be at most ${BODY_MAX} characters` }]
        : []),
    ];
    if (problems.length) {
      setError(new ApiError(400, 'VALIDATION_ERROR', 'Some fields need attention', problems));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const sent = await v2.post<Message>('/messages', {
        to,
        body: d.body,
        ...(d.from ? { from: d.from } : {}),
      });
      setD({ ...d, to: '', body: '' });
      onSent(sent);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="send-h">
      <h3 id="send-h">Send a text message</h3>
      <FormErrorNotice error={error} />
      <div class="row">
        <TextInput
          label="To"
          name="to"
          type="tel"
          required
          error={error}
          hint="International format, e.g. +919876543210"
          value={d.to}
          onChange={(v) => setD({ ...d, to: v })}
        />
        <Select
          label="From"
          name="from"
          error={error}
          hint={
            numbers.error
              ? 'Your numbers could not be listed: the message goes from the account’s default number'
              : 'One of your numbers; the message goes out on its carrier'
          }
          value={d.from}
          onChange={(v) => setD({ ...d, from: v })}
          options={[
            ['', 'The account’s default number'],
            ...active.map((n): [string, string] => [n.number, numberLabel(n)]),
          ]}
        />
      </div>
      <TextArea
        label="Message"
        name="body"
        rows={4}
        error={error}
        hint={`${d.body.length} of ${BODY_MAX} characters; a long message is sent in several parts (160 characters each, 70 with non-Latin characters)`}
        value={d.body}
        onChange={(v) => setD({ ...d, body: v })}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'Send message'}
      </button>
    </form>
  );
}

interface Filters {
  direction: string;
  status: string;
}

/**
 * One page of the history, read again on demand and while a message on it is on its way. A failed read keeps
 * the page shown (with the error), so a refresh never leaves the list empty or stuck.
 */
function useHistory(filters: Filters, cursor: string | undefined) {
  const [page, setPage] = useState<MessageList | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [readAt, setReadAt] = useState<Date | null>(null);
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  const key = JSON.stringify([filters, cursor]);
  const shownKey = useRef(key);
  useEffect(() => {
    const n = ++latest.current;
    setLoading(true);
    v2.get<MessageList>('/messages', { ...filters, cursor, limit: PAGE_SIZE }).then(
      (data) => {
        if (n !== latest.current) return;
        shownKey.current = key;
        setPage(data);
        setError(null);
        setReadAt(new Date());
        setLoading(false);
      },
      (err: unknown) => {
        if (n !== latest.current) return;
        setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
        // Another filter's page is not shown under this one's.
        if (shownKey.current !== key) setPage(null);
        setLoading(false);
      },
    );
  }, [key, tick]);
  const refresh = () => setTick((t) => t + 1);
  const following = Boolean(page?.messages.some((m) => ON_ITS_WAY.has(m.status)));
  useEffect(() => {
    if (!following || loading) return;
    const timer = setTimeout(refresh, FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [following, loading, tick, page]);
  return { page, error, loading, readAt, refresh, following };
}

function StatusCell({ m }: { m: Message }) {
  return (
    <>
      <span class={`badge ${STATUS_CLASS[m.status] ?? ''}`} data-testid="message-status">
        {words(m.status)}
      </span>
      {m.status === 'delivered' && m.delivered_at && (
        <div class="muted small">{formatDate(m.delivered_at)}</div>
      )}
      {(m.error_code || m.error_message) && (
        <div class="error small">
          {m.error_code && <>Error {m.error_code}</>}
          {m.error_code && m.error_message ? ': ' : ''}
          {m.error_message}
        </div>
      )}
    </>
  );
}

export function MessagesPage({ session }: { session: Session }) {
  const write = can.write(session);
  const [filters, setFilters] = useState<Filters>({ direction: '', status: '' });
  const [cursor, setCursor] = useState<string | undefined>();
  const [notice, setNotice] = useState('');
  const history = useHistory(filters, cursor);
  const agents = useAgents();
  const nameOf = (id: string) =>
    agents.data ? (agents.data.find((a) => a.id === id)?.agent_name ?? null) : undefined;
  const set = (name: keyof Filters, value: string) => {
    setCursor(undefined);
    setFilters((f) => ({ ...f, [name]: value }));
  };
  const { page } = history;
  return (
    <>
      <h2>Messages</h2>
      <p class="muted">
        Text messages (SMS) sent from your numbers, by you or by your agents during calls, and those your
        numbers received. The contact policy applies to each as to a call, and the message policy below says
        where they may go.
      </p>
      <SmsPolicyCard session={session} />
      <p role="status" class="ok">
        {notice}
      </p>
      {write && (
        <SendForm
          onSent={(m) => {
            setNotice(`Message to ${m.to} queued from ${m.from}. Its status follows below.`);
            setCursor(undefined);
            setFilters({ direction: '', status: '' });
            history.refresh();
          }}
        />
      )}
      <section aria-labelledby="history-h">
        <h3 id="history-h">History</h3>
        <form class="row" onSubmit={(e) => e.preventDefault()} aria-label="Filter messages">
          <Select
            label="Direction"
            name="direction"
            value={filters.direction}
            onChange={(v) => set('direction', v)}
            options={[
              ['', 'Sent and received'],
              ['outbound', 'Sent'],
              ['inbound', 'Received'],
            ]}
          />
          <Select
            label="Status"
            name="status"
            value={filters.status}
            onChange={(v) => set('status', v)}
            options={[['', 'Any'], ...STATUSES.map((s): [string, string] => [s, words(s)])]}
          />
          <div class="field">
            <button type="button" class="secondary" onClick={history.refresh} disabled={history.loading}>
              {history.loading ? 'Refreshing…' : 'Refresh'}
            </button>
          </div>
        </form>
        <p class="muted small" aria-live="polite">
          {history.readAt && `As of ${history.readAt.toLocaleTimeString()}`}
          {history.following && ' · following the messages on their way'}
        </p>
        {history.error && page && (
          <div class="card error" role="alert">
            <strong>The history could not be refreshed: {history.error.message}</strong> What is shown below
            was read earlier; try Refresh again.
          </div>
        )}
        {history.error && !page && <ErrorNotice error={history.error} />}
        {!page && !history.error && <p class="muted">Loading…</p>}
        {page && (
          <>
            <table>
              <caption class="sr-only">Messages, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Direction</th>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                  <th scope="col">Message</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {page.messages.map((m) => (
                  <tr key={m.id} data-message-id={m.id}>
                    <td>{formatDate(m.created_at)}</td>
                    <td>
                      {m.direction === 'outbound' ? 'Sent' : 'Received'}
                      <div class="muted small">{CARRIERS[m.carrier] ?? m.carrier}</div>
                    </td>
                    <td>{m.from}</td>
                    <td>{m.to}</td>
                    <td>
                      {m.body}
                      <div class="muted small">
                        {m.segments === 1 ? '1 part' : `${m.segments} parts`}
                        {m.agent_id && (
                          <>
                            {' '}
                            · by <AgentLink id={m.agent_id} name={nameOf(m.agent_id)} />
                          </>
                        )}
                        {m.call_id && (
                          <>
                            {' '}
                            · <a {...linkProps(`/calls/${encodeURIComponent(m.call_id)}`)}>during a call</a>
                          </>
                        )}
                      </div>
                    </td>
                    <td>
                      <StatusCell m={m} />
                    </td>
                  </tr>
                ))}
                {page.messages.length === 0 && (
                  <tr>
                    <td colSpan={6} class="muted">
                      {filters.direction || filters.status
                        ? 'No messages match.'
                        : `No messages yet.${write ? ' Send one above.' : ''}`}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
            <Pager cursor={cursor} next={page.next_cursor} onPage={setCursor} />
          </>
        )}
      </section>
    </>
  );
}
