// The integration log in the console: /tools/logs lists requests (filters in the URL, so other pages link to
// a call's or a function's requests: ?call_id=, ?function_id=, ?agent_id=, ?hook_id=, ?kind=, ?outcome=) and
// /tools/logs/{id} shows one request with what was sent and what came back.
import { useState } from 'preact/hooks';
import { v2 } from '../../api.js';
import {
  IntegrationLogEntry,
  IntegrationLogEntryView,
  IntegrationLogSummary,
  IntegrationLogTable,
  KIND_LABELS,
  OUTCOME_LABELS,
} from '../../components/integration-log.js';
import { useNames } from '../../components/names.js';
import { ErrorNotice, LoadState, Pager, useLoad } from '../../components/ui.js';
import { linkProps, ROOT } from '../../router.js';

const FILTERS = ['kind', 'outcome', 'function_id', 'agent_id', 'hook_id', 'call_id'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

function filtersFromUrl(): Filters {
  const q = new URLSearchParams(window.location.search);
  return Object.fromEntries(FILTERS.map((f) => [f, q.get(f) ?? ''])) as Filters;
}

export function LogsPage() {
  const [filters, setFilters] = useState<Filters>(filtersFromUrl);
  const [cursor, setCursor] = useState<string | undefined>();
  const names = useNames();
  const logs = useLoad(
    () =>
      v2.get<{ integration_logs: IntegrationLogSummary[]; next_cursor: string | null }>('/integration-logs', {
        ...filters,
        cursor,
        limit: 25,
      }),
    [JSON.stringify(filters), cursor],
  );
  const set = (name: keyof Filters, value: string) => {
    const next = { ...filters, [name]: value };
    setCursor(undefined);
    setFilters(next);
    // The URL follows the filters, so the view can be linked to and survives a reload.
    const q = new URLSearchParams(Object.entries(next).filter(([, v]) => v !== ''));
    window.history.replaceState(null, '', `${ROOT}/tools/logs${q.toString() ? `?${q}` : ''}`);
  };
  const select = (name: keyof Filters, label: string, options: [string, string][]) => (
    <div class="field">
      <label for={`log-${name}`}>{label}</label>
      <select id={`log-${name}`} value={filters[name]} onChange={(e) => set(name, e.currentTarget.value)}>
        <option value="">Any</option>
        {options.map(([v, t]) => (
          <option key={v} value={v}>
            {t}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <>
      <div class="row">
        <h2>Integration log</h2>
        <a {...linkProps('/tools')}>All tools</a>
      </div>
      <p class="muted">
        Requests the platform made to your systems: custom functions and their tests, lifecycle hooks, inbound
        decisions and knowledge page fetches, newest first.
      </p>
      <form class="card row" onSubmit={(e) => e.preventDefault()} aria-label="Filter requests">
        {select('kind', 'What', Object.entries(KIND_LABELS))}
        {select(
          'outcome',
          'Outcome',
          Object.entries(OUTCOME_LABELS).filter(([k]) =>
            ['success', 'http_error', 'timeout', 'refused'].includes(k),
          ),
        )}
        {select('function_id', 'Custom function', [...names.functions.entries()])}
        {select('agent_id', 'Agent', [...names.agents.entries()])}
        {filters.call_id && (
          <p>
            Requests of one call.{' '}
            <button type="button" class="secondary" onClick={() => set('call_id', '')}>
              Show every call
            </button>
          </p>
        )}
        {filters.hook_id && (
          <p>
            Requests of one lifecycle hook.{' '}
            <button type="button" class="secondary" onClick={() => set('hook_id', '')}>
              Show every hook
            </button>
          </p>
        )}
      </form>
      <LoadState loaded={logs}>
        {(page) => (
          <>
            <IntegrationLogTable
              logs={page.integration_logs}
              names={names}
              caption="Requests to your systems"
            />
            <Pager cursor={cursor} next={page.next_cursor} onPage={setCursor} />
          </>
        )}
      </LoadState>
    </>
  );
}

export function LogPage({ id }: { id: string }) {
  const entry = useLoad(
    () => v2.get<IntegrationLogEntry>(`/integration-logs/${encodeURIComponent(id)}`),
    [id],
  );
  const names = useNames();
  if (entry.error) return <ErrorNotice error={entry.error} />;
  return (
    <LoadState loaded={entry}>
      {(e) => (
        <>
          <div class="row">
            <h2>
              {KIND_LABELS[e.kind] ?? 'Request'}
              {e.function_id ? `: ${names.functions.get(e.function_id) ?? 'a deleted function'}` : ''}
            </h2>
            <a {...linkProps('/tools/logs')}>Integration log</a>
          </div>
          <section class="card">
            <IntegrationLogEntryView entry={e} names={names} />
          </section>
        </>
      )}
    </LoadState>
  );
}
