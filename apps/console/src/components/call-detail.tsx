// What a phone call and a browser (web) session share on their pages: the status (and the outcome when it says
// something else), the agent by name, the recording, the transcript as a timeline, latency per turn, the
// extraction, and each tool call with a link to its request and answer in the integration log.
import { Fragment, type ComponentChildren } from 'preact';
import { linkProps } from '../router.js';
import { AgentLink, useAgentName } from './agent-names.js';
import { LatencyChart, TurnLatency } from './charts.js';
import type { LiveMode } from './live.js';
import { FALLBACK_RELOAD_SECONDS } from './live-state.js';
import { formatDate, words } from './format.js';
import { writtenBy } from './models.js';

export interface TranscriptEntry {
  role: 'user' | 'bot';
  content: string;
  timestamp: string;
  latency?: TurnLatency;
  interrupted?: true;
  /** Agent lines: what heard the caller, the model that wrote the line (null: the platform said it), the voice. */
  providers?: { stt: string; llm: string | null; llm_model?: string | null; tts: string };
  /** The tokens of the model's rounds the line carries, as the provider reported them. */
  usage?: { input_tokens: number; output_tokens: number };
}

export interface ToolCall {
  name: string;
  kind: string;
  arguments: Record<string, unknown>;
  arguments_truncated?: boolean;
  outcome: string;
  latency_ms: number;
  log_id?: string | null;
  timestamp: string;
}

export interface SessionData {
  status: string;
  credits_used: number;
  processing_complete: boolean;
  transcript: TranscriptEntry[] | null;
  recording_url?: string;
  tool_calls: ToolCall[];
  extraction: { status: string; values: Record<string, unknown>; error: string | null } | null;
  /** The agents that held the call when it was handed off ([]: one agent throughout; absent on older reads). */
  segments?: {
    agent_id: string;
    agent_name: string | null;
    started_at: string;
    ended_at: string | null;
    handoff_reason: string | null;
  }[];
  /** Absent from sessions read before analysis existed. */
  analysis?: {
    status: string;
    summary: string | null;
    success: { passed: boolean; score: number; threshold: number; reasons: string } | null;
    error: string | null;
  } | null;
}

export interface DetailProps {
  heading: string;
  /** The call's or session's id: the integration log is looked up by it. */
  id: string;
  status: string;
  /** The call's disposition; shown only when it says something the status does not. */
  disposition?: string | null;
  agentId: string;
  /** Facts of the header, label and value. */
  facts: [string, ComponentChildren][];
  session: SessionData;
  mode: LiveMode;
  notice: string | null;
}

function LiveState({ mode, notice }: { mode: LiveMode; notice: string | null }) {
  const text =
    mode === 'push'
      ? 'Updating live'
      : mode === 'reload'
        ? `Refreshing every ${FALLBACK_RELOAD_SECONDS} seconds`
        : mode === 'final'
          ? 'Final: nothing more will change'
          : '';
  return (
    <p role="status" class="muted">
      {text}
      {notice ? ` · ${notice}` : ''}
    </p>
  );
}

/** The page of one call or web session. */
export function CallDetail(p: DetailProps) {
  const agentName = useAgentName(p.agentId);
  const s = p.session;
  const outcome = p.disposition && p.disposition !== p.status ? p.disposition : null;
  return (
    <>
      <h2>{p.heading}</h2>
      <div class="card">
        <p>
          Status:{' '}
          <span class="badge" aria-live="polite" data-testid="call-status">
            {words(p.status)}
          </span>
          {outcome && (
            <>
              {' '}
              Outcome: <span class="badge">{words(outcome)}</span>
            </>
          )}
        </p>
        <LiveState mode={p.mode} notice={p.notice} />
        <dl class="facts">
          <dt>Agent</dt>
          <dd>
            <AgentLink
              id={p.agentId}
              name={agentName.loading ? undefined : agentName.error ? p.agentId : agentName.data}
            />
          </dd>
          {p.facts.map(([label, value]) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      </div>
      {s.segments && s.segments.length > 0 && (
        <section class="card" aria-labelledby="seg-h">
          <h3 id="seg-h">Agents on this call</h3>
          <ol class="segments">
            {s.segments.map((seg, i) => (
              <li key={i}>
                <AgentLink id={seg.agent_id} name={seg.agent_name ?? seg.agent_id} /> from{' '}
                {formatDate(seg.started_at)}
                {seg.ended_at ? ` to ${formatDate(seg.ended_at)}` : ''}
                {seg.handoff_reason !== null &&
                  ` · handed on${seg.handoff_reason ? `: ${seg.handoff_reason}` : ''}`}
              </li>
            ))}
          </ol>
        </section>
      )}
      <section class="card" aria-labelledby="rec-h">
        <h3 id="rec-h">Recording</h3>
        {s.recording_url ? (
          <audio controls preload="metadata" src={s.recording_url} aria-label="Call recording" />
        ) : (
          <p class="muted">{s.processing_complete ? 'No recording.' : 'Not ready yet.'}</p>
        )}
      </section>
      <section class="card" aria-labelledby="tr-h">
        <h3 id="tr-h">Transcript</h3>
        {s.transcript && s.transcript.length ? (
          <ol class="timeline" aria-live="polite">
            {s.transcript.map((t, i) => (
              <li key={i} class={t.role}>
                <div class="meta">
                  {t.role === 'bot' ? 'Agent' : 'Caller'} · {formatDate(t.timestamp)}
                  {t.interrupted ? ' · interrupted' : ''}
                  {writtenBy(t.providers) && <span class="small"> · {writtenBy(t.providers)}</span>}
                  {t.usage && (
                    <span class="small">
                      {' '}
                      · {t.usage.input_tokens.toLocaleString()} in / {t.usage.output_tokens.toLocaleString()}{' '}
                      out tokens
                    </span>
                  )}
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
        <LatencyChart turns={(s.transcript ?? []).filter((t) => t.latency).map((t) => t.latency!)} />
      </section>
      <section class="card" aria-labelledby="an-h">
        <h3 id="an-h">Summary and success</h3>
        {s.analysis ? (
          <>
            {s.analysis.status !== 'success' && (
              <p>
                <span class="badge">{words(s.analysis.status)}</span> {s.analysis.error ?? ''}
              </p>
            )}
            {s.analysis.summary && <p class="call-summary">{s.analysis.summary}</p>}
            {s.analysis.success && (
              <p class="call-success">
                <span class={`badge ${s.analysis.success.passed ? 'outcome-success' : 'outcome-refused'}`}>
                  {s.analysis.success.passed ? 'Successful' : 'Not successful'}
                </span>{' '}
                {`${s.analysis.success.score} of 10 (passes at ${s.analysis.success.threshold}). `}
                {s.analysis.success.reasons}
              </p>
            )}
          </>
        ) : (
          <p class="muted">{s.processing_complete ? 'No analysis for this call.' : 'Not run yet.'}</p>
        )}
      </section>
      <section class="card" aria-labelledby="ex-h">
        <h3 id="ex-h">Extraction</h3>
        {s.extraction ? (
          <>
            <p>
              <span class="badge">{words(s.extraction.status)}</span> {s.extraction.error ?? ''}
            </p>
            <table>
              <tbody>
                {Object.entries(s.extraction.values).map(([k, v]) => (
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
        <ToolCallsTable id={p.id} calls={s.tool_calls} />
      </section>
    </>
  );
}

/** The tools called, each linked to its request and answer when one was sent to the partner. */
export function ToolCallsTable({ id, calls }: { id: string; calls: ToolCall[] }) {
  if (!calls.length) return <p class="muted">No tools were called.</p>;
  return (
    <>
      <table>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Arguments</th>
            <th scope="col">Outcome</th>
            <th scope="col">Latency</th>
            <th scope="col">Request and answer</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((t, i) => (
            <tr key={i}>
              <td>
                {t.name} <span class="badge">{t.kind === 'custom' ? 'your function' : 'built-in'}</span>
              </td>
              <td>
                {t.arguments_truncated ? (
                  <span class="muted">too large to keep</span>
                ) : (
                  <code>{JSON.stringify(t.arguments)}</code>
                )}
              </td>
              <td>{words(t.outcome)}</td>
              <td>{t.latency_ms} ms</td>
              <td>
                {t.log_id ? (
                  <a {...linkProps(`/tools/logs/${encodeURIComponent(t.log_id)}`)}>
                    Request and answer<span class="visually-hidden"> of {t.name}</span>
                  </a>
                ) : (
                  <span class="muted">
                    {t.kind === 'custom' ? 'Nothing was sent' : 'Runs on the platform'}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {calls.some((t) => t.log_id) && (
        <p>
          <a {...linkProps(`/tools/logs?call_id=${encodeURIComponent(id)}`)}>
            Every request of this conversation
          </a>
        </p>
      )}
    </>
  );
}
