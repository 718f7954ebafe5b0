// The integration log as the console shows it: a table of requests made to the partner's systems, one
// request in full (what was sent, what came back), and an explanation a person can act on when a request
// failed for a reason of their endpoint's (an untrusted certificate, an address the platform will not reach).
import { explainFailure, REACHING_DOCS } from './endpoint-failures.js';
import { linkProps } from '../router.js';
import { formatDate, prettyBody } from './format.js';

export interface IntegrationLogSummary {
  id: string;
  kind: string;
  method: string;
  url: string;
  status: number | null;
  outcome: string;
  error: string | null;
  latency_ms: number;
  attempts: number;
  call_id: string | null;
  browser_session_id: string | null;
  agent_id: string | null;
  function_id: string | null;
  hook_id: string | null;
  started_at: string;
}

export interface IntegrationLogEntry extends IntegrationLogSummary {
  request_headers: Record<string, string>;
  request_body: string | null;
  response_body: string | null;
}

/** What each kind of request was for, in words. */
export const KIND_LABELS: Record<string, string> = {
  custom_function: 'Custom function',
  custom_function_test: 'Custom function test',
  pre_call_hook: 'Pre-call hook',
  post_call_hook: 'Post-call hook',
  inbound_decision: 'Inbound decision',
  knowledge_fetch: 'Knowledge page fetch',
};

export const OUTCOME_LABELS: Record<string, string> = {
  success: 'Success',
  http_error: 'HTTP error',
  timeout: 'Timed out',
  refused: 'Not connected',
  invalid_arguments: 'Invalid arguments',
  not_found: 'Not found',
};

/** The explanation of a failed request, when it has one; nothing otherwise. */
export function FailureHelp({ error }: { error: string | null | undefined }) {
  const help = explainFailure(error);
  if (!help) return null;
  return (
    <div class="card notice" role="note">
      <p>
        <strong>{help.title}</strong>
      </p>
      <p>{help.advice}</p>
      <p class="muted">
        How to reach an endpoint during development (tunnels, certificates, the development-only settings):{' '}
        {REACHING_DOCS}.
      </p>
    </div>
  );
}

export function OutcomeBadge({ outcome, status }: { outcome: string; status: number | null }) {
  return (
    <span class={`badge outcome-${outcome}`}>
      {OUTCOME_LABELS[outcome] ?? outcome}
      {status !== null ? ` · ${status}` : ''}
    </span>
  );
}

/** A table of log entries; each opens its page. `names` gives functions and agents their names. */
export function IntegrationLogTable({
  logs,
  names,
  caption,
}: {
  logs: IntegrationLogSummary[];
  names: { agents: Map<string, string>; functions: Map<string, string> };
  caption: string;
}) {
  return (
    <table>
      <caption class="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What</th>
          <th scope="col">Outcome</th>
          <th scope="col">Latency</th>
          <th scope="col">Agent</th>
        </tr>
      </thead>
      <tbody>
        {logs.map((l) => (
          <tr key={l.id}>
            <td>
              <a {...linkProps(`/tools/logs/${encodeURIComponent(l.id)}`)}>{formatDate(l.started_at)}</a>
            </td>
            <td>
              {KIND_LABELS[l.kind] ?? l.kind}
              {l.function_id && `: ${names.functions.get(l.function_id) ?? 'a deleted function'}`}
              <div class="muted small">
                {l.method} {l.url}
              </div>
            </td>
            <td>
              <OutcomeBadge outcome={l.outcome} status={l.status} />
              {l.error && <div class="muted small">{l.error}</div>}
            </td>
            <td>{l.latency_ms} ms</td>
            <td>{l.agent_id ? (names.agents.get(l.agent_id) ?? 'a deleted agent') : '—'}</td>
          </tr>
        ))}
        {logs.length === 0 && (
          <tr>
            <td colSpan={5} class="muted">
              No requests match.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** Headers as a table; values the platform masks read as the API gives them (********). */
export function HeaderTable({ headers, caption }: { headers: Record<string, string>; caption: string }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p class="muted">No headers.</p>;
  return (
    <table class="compact">
      <caption class="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Header</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">
              <code>{k}</code>
            </th>
            <td>
              <code class="wrap">{v}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One request in full: when and what, how it ended (with the explanation of a failure its owner can fix), the
 * request's headers (secrets masked by the platform) and body, and the answer's body.
 */
export function IntegrationLogEntryView({
  entry,
  names,
  headingLevel = 3,
}: {
  entry: IntegrationLogEntry;
  names: { agents: Map<string, string>; functions: Map<string, string> };
  headingLevel?: 3 | 4;
}) {
  const H = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <>
      <dl class="facts">
        <dt>What</dt>
        <dd>
          {KIND_LABELS[entry.kind] ?? entry.kind}
          {entry.function_id && (
            <>
              {' '}
              <a {...linkProps(`/tools/functions/${encodeURIComponent(entry.function_id)}`)}>
                {names.functions.get(entry.function_id) ?? 'a deleted function'}
              </a>
            </>
          )}
        </dd>
        <dt>Started</dt>
        <dd>{formatDate(entry.started_at)}</dd>
        <dt>Outcome</dt>
        <dd>
          <OutcomeBadge outcome={entry.outcome} status={entry.status} />
        </dd>
        <dt>Latency</dt>
        <dd>
          {entry.latency_ms} ms · {entry.attempts} {entry.attempts === 1 ? 'attempt' : 'attempts'}
        </dd>
        {entry.error && (
          <>
            <dt>Error</dt>
            <dd>{entry.error}</dd>
          </>
        )}
        {entry.agent_id && (
          <>
            <dt>Agent</dt>
            <dd>
              <a {...linkProps(`/agents/${encodeURIComponent(entry.agent_id)}`)}>
                {names.agents.get(entry.agent_id) ?? 'a deleted agent'}
              </a>
            </dd>
          </>
        )}
        {entry.call_id && (
          <>
            <dt>Call</dt>
            <dd>
              <a {...linkProps(`/calls/${encodeURIComponent(entry.call_id)}`)}>Open the call</a>
            </dd>
          </>
        )}
      </dl>
      <FailureHelp error={entry.error} />
      <H>Request sent</H>
      <p>
        <code class="wrap">
          {entry.method} {entry.url}
        </code>
      </p>
      <HeaderTable headers={entry.request_headers} caption="Request headers" />
      {entry.request_body ? (
        <pre class="body" tabIndex={0} aria-label="Request body">
          {prettyBody(entry.request_body)}
        </pre>
      ) : (
        <p class="muted">No request body.</p>
      )}
      <H>Answer received</H>
      {entry.status !== null ? <p>HTTP status {entry.status}</p> : <p class="muted">No answer came.</p>}
      {entry.response_body ? (
        <pre class="body" tabIndex={0} aria-label="Answer body">
          {prettyBody(entry.response_body)}
        </pre>
      ) : (
        entry.status !== null && <p class="muted">The answer had no text body.</p>
      )}
    </>
  );
}
