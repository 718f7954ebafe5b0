// Calls: phone calls and web (browser) sessions in one list, filtered by channel, status, agent and dates; a call's
// or a session's page followed live by push (server-sent events) until it is final: the transcript as a
// timeline, the recording, latency per turn, extraction and tool calls.
import { useState } from 'preact/hooks';
import { v2 } from '../api.js';
import { AgentLink, useAgents } from '../components/agent-names.js';
import { CallDetail, SessionData } from '../components/call-detail.js';
import { useLive } from '../components/live.js';
import { ErrorNotice, LoadState, Pager, useLoad } from '../components/ui.js';
import { linkProps } from '../router.js';
import { formatDate, words } from '../components/format.js';
import { CallTransfer, transferFacts } from './call-transfer.js';

const PHONE_STATUSES = [
  'pending',
  'ringing',
  'in_progress',
  'completed',
  'failed',
  'no_answer',
  'busy',
  'canceled',
];
const WEB_STATUSES = ['pending', 'active', 'completed', 'expired', 'failed'];
const ALL_STATUSES = [...PHONE_STATUSES, ...WEB_STATUSES.filter((s) => !PHONE_STATUSES.includes(s))];
const ACTIVE_CALL = new Set(['pending', 'ringing', 'in_progress']);
const ACTIVE_WEB = new Set(['pending', 'active']);
const PAGE_SIZE = 25;

interface Call {
  call_id: string;
  agent_id: string;
  direction: string;
  from_number: string;
  to_number: string;
  status: string;
  disposition: string | null;
  end_call_reason: string | null;
  duration_seconds: number | null;
  bill_duration_seconds: number | null;
  created_at: string;
  /** Cloud speech providers that served the call on the platform's keys ([]: none). */
  platform_speech_providers?: string[];
  /** The call's transfer to a human, with its legs (null: not transferred). */
  transfer?: CallTransfer | null;
  session: SessionData;
}

interface WebSession {
  id: string;
  agent_id: string;
  status: string;
  end_reason: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  duration_secs: number | null;
  credits_used: number;
  allowed_origins: string[];
  session: SessionData;
}

type Channel = 'all' | 'phone' | 'web';

interface Filters {
  channel: Channel;
  status: string;
  agent_id: string;
  direction: string;
  created_after: string;
  created_before: string;
}

/** One row of the list, a phone call or a web session alike. */
interface Row {
  id: string;
  channel: 'phone' | 'web';
  created_at: string;
  agent_id: string;
  number: string;
  status: string;
  duration: number | null;
  credits: number;
  href: string;
}

const callRow = (c: Call): Row => ({
  id: c.call_id,
  channel: 'phone',
  created_at: c.created_at,
  agent_id: c.agent_id,
  number: c.direction === 'inbound' ? c.from_number : c.to_number,
  status: c.status,
  duration: c.duration_seconds,
  credits: c.session?.credits_used ?? 0,
  href: `/calls/${encodeURIComponent(c.call_id)}`,
});

const webRow = (s: WebSession): Row => ({
  id: s.id,
  channel: 'web',
  created_at: s.created_at,
  agent_id: s.agent_id,
  // A web session has no phone number: the pages it may run on say where it came from.
  number: s.allowed_origins.map((o) => o.replace(/^https?:\/\//, '')).join(', ') || '—',
  status: s.status,
  duration: s.duration_secs,
  credits: s.credits_used,
  href: `/calls/web/${encodeURIComponent(s.id)}`,
});

const iso = (local: string) => (local ? new Date(local).toISOString() : '');

/**
 * One page of rows. One channel pages by its own cursor; both are merged newest first and paged by time (the
 * next page is what was created before the oldest row shown), since two cursors cannot be merged.
 */
async function loadRows(
  f: Filters,
  cursor: string | undefined,
): Promise<{ rows: Row[]; next: string | null }> {
  const common = {
    agent_id: f.agent_id,
    created_after: iso(f.created_after),
    created_before: iso(f.created_before),
    limit: PAGE_SIZE,
  };
  const phone = (query: Record<string, string | number | undefined>) =>
    f.status && !PHONE_STATUSES.includes(f.status)
      ? Promise.resolve({ calls: [] as Call[], next_cursor: null })
      : v2.get<{ calls: Call[]; next_cursor: string | null }>('/calls', {
          ...common,
          status: f.status,
          direction: f.direction,
          ...query,
        });
  const web = (query: Record<string, string | number | undefined>) =>
    f.status && !WEB_STATUSES.includes(f.status)
      ? Promise.resolve({ browser_sessions: [] as WebSession[], next_cursor: null })
      : v2.get<{ browser_sessions: WebSession[]; next_cursor: string | null }>('/browser-sessions', {
          ...common,
          status: f.status,
          ...query,
        });
  if (f.channel === 'phone') {
    const page = await phone({ cursor });
    return { rows: page.calls.map(callRow), next: page.next_cursor };
  }
  if (f.channel === 'web') {
    const page = await web({ cursor });
    return { rows: page.browser_sessions.map(webRow), next: page.next_cursor };
  }
  const before = cursor ?? common.created_before;
  const [calls, sessions] = await Promise.all([
    phone({ created_before: before }),
    web({ created_before: before }),
  ]);
  const merged = [...calls.calls.map(callRow), ...sessions.browser_sessions.map(webRow)].sort((a, b) =>
    b.created_at.localeCompare(a.created_at),
  );
  let shown = merged.slice(0, PAGE_SIZE);
  // Rows created in the same instant as the last one shown stay on this page: the next one starts strictly before.
  const last = shown[shown.length - 1];
  if (last) shown = merged.filter((r, i) => i < PAGE_SIZE || r.created_at === last.created_at);
  const more = merged.length > shown.length || calls.next_cursor !== null || sessions.next_cursor !== null;
  return { rows: shown, next: more && last ? last.created_at : null };
}

export function CallsPage() {
  const [filters, setFilters] = useState<Filters>({
    channel: 'all',
    status: '',
    agent_id: '',
    direction: '',
    created_after: '',
    created_before: '',
  });
  const [cursor, setCursor] = useState<string | undefined>();
  const agents = useAgents();
  const list = useLoad(() => loadRows(filters, cursor), [JSON.stringify(filters), cursor]);
  const statuses =
    filters.channel === 'phone' ? PHONE_STATUSES : filters.channel === 'web' ? WEB_STATUSES : ALL_STATUSES;
  const set = (name: keyof Filters, value: string) => {
    setCursor(undefined);
    setFilters((f) => {
      const next = { ...f, [name]: value };
      if (name === 'channel') {
        const valid = value === 'phone' ? PHONE_STATUSES : value === 'web' ? WEB_STATUSES : ALL_STATUSES;
        if (!valid.includes(next.status)) next.status = '';
        if (value !== 'phone') next.direction = '';
      }
      return next;
    });
  };
  const nameOf = (id: string) => {
    if (!agents.data) return undefined;
    return agents.data.find((a) => a.id === id)?.agent_name ?? null;
  };
  return (
    <>
      <h2>Calls</h2>
      <p class="muted">Phone calls and web sessions (people talking to an agent from a web page).</p>
      <form class="card row" onSubmit={(e) => e.preventDefault()} aria-label="Filter calls">
        <div class="field">
          <label for="f-channel">Channel</label>
          <select
            id="f-channel"
            value={filters.channel}
            onChange={(e) => set('channel', e.currentTarget.value)}
          >
            <option value="all">All</option>
            <option value="phone">Phone</option>
            <option value="web">Web</option>
          </select>
        </div>
        <div class="field">
          <label for="f-status">Status</label>
          <select id="f-status" value={filters.status} onChange={(e) => set('status', e.currentTarget.value)}>
            <option value="">Any</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {words(s)}
                {filters.channel === 'all' && !WEB_STATUSES.includes(s) ? ' (phone)' : ''}
                {filters.channel === 'all' && !PHONE_STATUSES.includes(s) ? ' (web)' : ''}
              </option>
            ))}
          </select>
        </div>
        {filters.channel === 'phone' && (
          <div class="field">
            <label for="f-direction">Direction</label>
            <select
              id="f-direction"
              value={filters.direction}
              onChange={(e) => set('direction', e.currentTarget.value)}
            >
              <option value="">Any</option>
              <option value="outbound">outbound</option>
              <option value="inbound">inbound</option>
            </select>
          </div>
        )}
        <div class="field">
          <label for="f-agent">Agent</label>
          <select
            id="f-agent"
            value={filters.agent_id}
            onChange={(e) => set('agent_id', e.currentTarget.value)}
          >
            <option value="">Any</option>
            {(agents.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.agent_name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-after">From</label>
          <input
            id="f-after"
            type="datetime-local"
            value={filters.created_after}
            onChange={(e) => set('created_after', e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="f-before">To</label>
          <input
            id="f-before"
            type="datetime-local"
            value={filters.created_before}
            onChange={(e) => set('created_before', e.currentTarget.value)}
          />
        </div>
      </form>
      <ErrorNotice error={agents.error} />
      <LoadState loaded={list}>
        {(page) => (
          <>
            <table>
              <caption class="visually-hidden">Calls and web sessions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Number</th>
                  <th scope="col">Status</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Credits</th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((r) => (
                  <tr key={`${r.channel}-${r.id}`} data-channel={r.channel}>
                    <td>
                      <a {...linkProps(r.href)}>{formatDate(r.created_at)}</a>
                    </td>
                    <td>
                      <AgentLink id={r.agent_id} name={nameOf(r.agent_id)} />
                    </td>
                    <td>{r.channel === 'phone' ? 'Phone' : 'Web'}</td>
                    <td>{r.number}</td>
                    <td>
                      <span class="badge">{words(r.status)}</span>
                    </td>
                    <td>{r.duration === null ? '—' : `${r.duration} s`}</td>
                    <td>{r.credits}</td>
                  </tr>
                ))}
                {page.rows.length === 0 && (
                  <tr>
                    <td colSpan={7} class="muted">
                      Nothing matches.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
            <Pager cursor={cursor} next={page.next} onPage={setCursor} />
          </>
        )}
      </LoadState>
    </>
  );
}

const callIsFinal = (c: Call) => !ACTIVE_CALL.has(c.status) && c.session.processing_complete;
const webIsFinal = (s: WebSession) => !ACTIVE_WEB.has(s.status) && s.session.processing_complete;

export function CallPage({ id }: { id: string }) {
  const live = useLive(
    `call:${id}`,
    () => v2.get<Call>(`/calls/${encodeURIComponent(id)}`),
    `/console/api/live/calls/${encodeURIComponent(id)}`,
    callIsFinal,
  );
  if (live.error) return <ErrorNotice error={live.error} />;
  if (!live.data) return <p class="muted">Loading…</p>;
  const c = live.data;
  return (
    <CallDetail
      heading={`${c.direction === 'inbound' ? 'Call from' : 'Call to'} ${c.direction === 'inbound' ? c.from_number : c.to_number}`}
      id={c.call_id}
      status={c.status}
      disposition={c.disposition}
      agentId={c.agent_id}
      mode={live.mode}
      notice={live.notice}
      session={c.session}
      facts={[
        ['Channel', 'Phone'],
        ['Direction', c.direction],
        ['From', c.from_number],
        ['To', c.to_number],
        ['Created', formatDate(c.created_at)],
        ['Billed', `${c.bill_duration_seconds ?? 0} s`],
        ['Credits', String(c.session.credits_used)],
        ...(c.end_call_reason ? [['Ended', words(c.end_call_reason)] as [string, string]] : []),
        ...(c.platform_speech_providers?.length
          ? [['Platform-paid speech', c.platform_speech_providers.join(', ')] as [string, string]]
          : []),
        ...transferFacts(c.transfer, formatDate),
      ]}
    />
  );
}

export function WebSessionPage({ id }: { id: string }) {
  const live = useLive(
    `web:${id}`,
    () => v2.get<WebSession>(`/browser-sessions/${encodeURIComponent(id)}`),
    `/console/api/live/browser-sessions/${encodeURIComponent(id)}`,
    webIsFinal,
  );
  if (live.error) return <ErrorNotice error={live.error} />;
  if (!live.data) return <p class="muted">Loading…</p>;
  const s = live.data;
  return (
    <CallDetail
      heading="Web session"
      id={s.id}
      status={s.status}
      agentId={s.agent_id}
      mode={live.mode}
      notice={live.notice}
      session={s.session}
      facts={[
        ['Channel', 'Web'],
        ['Created', formatDate(s.created_at)],
        ['Connected', formatDate(s.started_at)],
        ['Ended', formatDate(s.ended_at)],
        ['Duration', s.duration_secs === null ? '—' : `${s.duration_secs} s`],
        ['Credits', String(s.credits_used)],
        ['Allowed pages', s.allowed_origins.join(', ')],
        ...(s.end_reason ? [['Why it ended', words(s.end_reason)] as [string, string]] : []),
      ]}
    />
  );
}
