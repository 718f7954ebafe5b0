// Calls: a filterable list, and a call's page followed live until post-call processing is done: the transcript
// as a timeline, the recording in an audio player, per-turn latency as a chart, extraction and tool calls.
import { useEffect, useState } from 'preact/hooks';
import { v2 } from '../api.js';
import { ErrorNotice, formatDate, LoadState, useLoad, Pager } from '../components/ui.js';
import { LatencyChart, TurnLatency } from '../components/charts.js';
import { linkProps } from '../router.js';

const STATUSES = [
  'pending',
  'ringing',
  'in_progress',
  'completed',
  'failed',
  'no_answer',
  'busy',
  'canceled',
];
const ACTIVE = new Set(['pending', 'ringing', 'in_progress']);

interface TranscriptEntry {
  role: 'user' | 'bot';
  content: string;
  timestamp: string;
  latency?: TurnLatency;
  interrupted?: true;
}

interface ToolCall {
  name: string;
  kind: string;
  arguments: Record<string, unknown>;
  outcome: string;
  latency_ms: number;
  timestamp: string;
}

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
  session: {
    status: string;
    credits_used: number;
    processing_complete: boolean;
    transcript: TranscriptEntry[] | null;
    recording_url?: string;
    tool_calls: ToolCall[];
    extraction: { status: string; values: Record<string, unknown>; error: string | null } | null;
  };
}

export function CallsPage() {
  const [filters, setFilters] = useState({
    status: '',
    agent_id: '',
    direction: '',
    created_after: '',
    created_before: '',
  });
  const [cursor, setCursor] = useState<string | undefined>();
  const list = useLoad(
    () =>
      v2.get<{ calls: Call[]; next_cursor: string | null }>('/calls', {
        ...filters,
        created_after: filters.created_after ? new Date(filters.created_after).toISOString() : '',
        created_before: filters.created_before ? new Date(filters.created_before).toISOString() : '',
        cursor,
        limit: 25,
      }),
    [JSON.stringify(filters), cursor],
  );
  const set = (name: string, value: string) => {
    setCursor(undefined);
    setFilters((f) => ({ ...f, [name]: value }));
  };
  return (
    <>
      <h2>Calls</h2>
      <form class="card row" onSubmit={(e) => e.preventDefault()} aria-label="Filter calls">
        <div class="field">
          <label for="f-status">Status</label>
          <select id="f-status" value={filters.status} onChange={(e) => set('status', e.currentTarget.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-direction">Direction</label>
          <select
            id="f-direction"
            value={filters.direction}
            onChange={(e) => set('direction', e.currentTarget.value)}
          >
            <option value="">Any</option>
            <option>outbound</option>
            <option>inbound</option>
          </select>
        </div>
        <div class="field">
          <label for="f-agent">Agent id</label>
          <input
            id="f-agent"
            value={filters.agent_id}
            onChange={(e) => set('agent_id', e.currentTarget.value.trim())}
          />
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
      <LoadState loaded={list}>
        {(page) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">To</th>
                  <th scope="col">Status</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Credits</th>
                </tr>
              </thead>
              <tbody>
                {page.calls.map((c) => (
                  <tr key={c.call_id}>
                    <td>
                      <a {...linkProps(`/calls/${c.call_id}`)}>{formatDate(c.created_at)}</a>
                    </td>
                    <td>{c.to_number}</td>
                    <td>
                      <span class="badge">{c.status}</span>
                    </td>
                    <td>{c.duration_seconds ?? '—'} s</td>
                    <td>{c.session?.credits_used ?? 0}</td>
                  </tr>
                ))}
                {page.calls.length === 0 && (
                  <tr>
                    <td colSpan={5} class="muted">
                      No calls match.
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

export function CallPage({ id }: { id: string }) {
  const call = useLoad(() => v2.get<Call>(`/calls/${encodeURIComponent(id)}`), [id]);
  // Followed live: the page asks again every 2 s until the call ended and its processing is done.
  const live = call.data && (ACTIVE.has(call.data.status) || !call.data.session.processing_complete);
  useEffect(() => {
    if (!live) return;
    const t = setTimeout(call.reload, 2000);
    return () => clearTimeout(t);
  }, [live, call.data]);
  if (call.error && !call.data) return <ErrorNotice error={call.error} />;
  return (
    <LoadState loaded={call}>
      {(c) => (
        <>
          <h2>Call to {c.to_number}</h2>
          <div class="card">
            <p>
              <span class="badge" aria-live="polite">
                {c.status}
              </span>{' '}
              {c.disposition && <span class="badge">{c.disposition}</span>}{' '}
              {live && <span class="muted">(updating live)</span>}
            </p>
            <p class="muted">
              Agent <a {...linkProps(`/agents/${c.agent_id}`)}>{c.agent_id}</a> · {c.direction} · from{' '}
              {c.from_number} · created {formatDate(c.created_at)} · billed {c.bill_duration_seconds ?? 0} s ·
              credits {c.session.credits_used}
              {c.end_call_reason ? ` · ended: ${c.end_call_reason}` : ''}
              {c.platform_speech_providers?.length
                ? ` · platform-paid speech: ${c.platform_speech_providers.join(', ')}`
                : ''}
            </p>
          </div>
          <section class="card" aria-labelledby="rec-h">
            <h3 id="rec-h">Recording</h3>
            {c.session.recording_url ? (
              <audio controls preload="metadata" src={c.session.recording_url} aria-label="Call recording" />
            ) : (
              <p class="muted">
                {c.session.processing_complete ? 'No recording for this call.' : 'Not ready yet.'}
              </p>
            )}
          </section>
          <section class="card" aria-labelledby="tr-h">
            <h3 id="tr-h">Transcript</h3>
            {c.session.transcript && c.session.transcript.length ? (
              <ol class="timeline">
                {c.session.transcript.map((t, i) => (
                  <li key={i} class={t.role}>
                    <div class="meta">
                      {t.role === 'bot' ? 'Agent' : 'Caller'} · {formatDate(t.timestamp)}
                      {t.interrupted ? ' · interrupted' : ''}
                    </div>
                    {t.content}
                  </li>
                ))}
              </ol>
            ) : (
              <p class="muted">No transcript yet.</p>
            )}
          </section>
          <section class="card" aria-labelledby="lat-h">
            <h3 id="lat-h">Latency per turn</h3>
            <LatencyChart
              turns={(c.session.transcript ?? []).filter((t) => t.latency).map((t) => t.latency!)}
            />
          </section>
          <section class="card" aria-labelledby="ex-h">
            <h3 id="ex-h">Extraction</h3>
            {c.session.extraction ? (
              <>
                <p>
                  <span class="badge">{c.session.extraction.status}</span> {c.session.extraction.error ?? ''}
                </p>
                <table>
                  <tbody>
                    {Object.entries(c.session.extraction.values).map(([k, v]) => (
                      <tr key={k}>
                        <th scope="row">{k}</th>
                        <td>{v === null ? '—' : JSON.stringify(v)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            ) : (
              <p class="muted">Not run yet.</p>
            )}
          </section>
          <section class="card" aria-labelledby="tools-h">
            <h3 id="tools-h">Tool calls</h3>
            {c.session.tool_calls.length ? (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Tool</th>
                    <th scope="col">Arguments</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Latency</th>
                  </tr>
                </thead>
                <tbody>
                  {c.session.tool_calls.map((t, i) => (
                    <tr key={i}>
                      <td>
                        {t.name} <span class="badge">{t.kind}</span>
                      </td>
                      <td>
                        <code>{JSON.stringify(t.arguments)}</code>
                      </td>
                      <td>{t.outcome}</td>
                      <td>{t.latency_ms} ms</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p class="muted">No tools were called.</p>
            )}
          </section>
        </>
      )}
    </LoadState>
  );
}
