// Talking to an agent from the console: a browser session created through the console (the signed-in user's
// account; no API key in the page), the platform's web client loaded from the gateway (/sdk/voice-client.js), and
// the live transcript, the agent's speaking state and tool calls as they happen. With the microphone ("Talk") or
// typed caller turns (the scripted test: the same session protocol in text mode).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { linkProps } from '../router.js';
import { ErrorNotice } from './ui.js';
import { words } from './format.js';

/** Where the gateway serves the web client (a module of the same origin as the console). */
export const CLIENT_MODULE = '/sdk/voice-client.js';

export interface ToolEvent {
  name: string;
  status: 'running' | 'done';
  arguments?: Record<string, unknown>;
  arguments_truncated?: boolean;
  outcome?: string;
  latency_ms?: number;
}

interface TranscriptLine {
  role: 'user' | 'agent';
  text: string;
  final: boolean;
}

/** The part of the web client's VoiceClient the console uses (docs/web-client.md). */
interface VoiceClient {
  readonly transcript: TranscriptLine[];
  sessionId: string | undefined;
  readonly muted: boolean;
  readonly ended: boolean;
  on(event: 'transcript', fn: (line: TranscriptLine) => void): () => void;
  on(event: 'agent', fn: (e: { speaking: boolean }) => void): () => void;
  on(event: 'tool', fn: (e: ToolEvent) => void): () => void;
  on(event: 'speech', fn: (e: { stt: string; tts: string; warning?: string }) => void): () => void;
  on(event: 'ended', fn: (e: { reason: string }) => void): () => void;
  on(event: 'error', fn: (e: Error) => void): () => void;
  mute(muted: boolean): void;
  end(): Promise<void>;
  sendText?(text: string): void;
  typing?(): void;
}

interface VoiceClientClass {
  connect(options: { url: string; microphone?: boolean }): Promise<VoiceClient>;
  prototype: { sendText?: unknown };
}

/** Loads the web client module from the gateway (once; the browser keeps it). */
async function loadClient(): Promise<VoiceClientClass> {
  const url: string = CLIENT_MODULE;
  const module = (await import(url)) as { VoiceClient?: VoiceClientClass };
  if (!module.VoiceClient) throw new Error('The web client could not be loaded.');
  return module.VoiceClient;
}

export interface ToolRow extends ToolEvent {
  key: number;
}

export type Phase = 'idle' | 'starting' | 'live' | 'ended';

export interface VoiceSessionState {
  phase: Phase;
  sessionId: string | null;
  lines: TranscriptLine[];
  speaking: boolean;
  tools: ToolRow[];
  /**
   * What the session hears the microphone with, as the voice service said when it started (its `speech`
   * notice): a transcriber's provider, or `offline`, the signal engine that understands only the platform's own
   * synthetic speech. Null until said, and for typed sessions (typed lines need no recogniser).
   */
  hearing: string | null;
  muted: boolean;
  endReason: string | null;
  error: ApiError | null;
}

const INITIAL: VoiceSessionState = {
  phase: 'idle',
  sessionId: null,
  lines: [],
  speaking: false,
  tools: [],
  hearing: null,
  muted: false,
  endReason: null,
  error: null,
};

/** A failure as the person should read it; a blocked connection says what the operator must allow. */
function startError(error: unknown, blocked: string[]): ApiError {
  if (error instanceof ApiError) return error;
  if (blocked.length)
    return new ApiError(
      0,
      'BLOCKED',
      `This console's security policy blocked the voice connection (${blocked.join(', ')}). ` +
        'Ask the platform operator to allow the voice service in the console policy.',
    );
  const message = error instanceof Error ? error.message : String(error);
  if (/Permission|NotAllowed|denied/i.test(message))
    return new ApiError(
      0,
      'MICROPHONE',
      'The browser refused the microphone: allow it for this site and try again.',
    );
  return new ApiError(0, 'ERROR', message);
}

/** A browser session with the agent, run from this page. */
export function useVoiceSession() {
  const [state, setState] = useState<VoiceSessionState>(INITIAL);
  const client = useRef<VoiceClient | null>(null);
  const toolKey = useRef(0);
  // Ends the session when the person leaves the page.
  useEffect(
    () => () => {
      void client.current?.end();
    },
    [],
  );

  const start = async (agentId: string, mode: 'microphone' | 'text') => {
    if (state.phase === 'starting' || state.phase === 'live') return;
    setState({ ...INITIAL, phase: 'starting' });
    const blocked: string[] = [];
    const onViolation = (e: SecurityPolicyViolationEvent) => blocked.push(e.effectiveDirective);
    document.addEventListener('securitypolicyviolation', onViolation);
    try {
      const VoiceClient = await loadClient();
      if (mode === 'text' && typeof VoiceClient.prototype.sendText !== 'function')
        throw new ApiError(
          0,
          'UNSUPPORTED',
          "This platform's web client does not take typed caller turns yet: use Talk, or a sandbox call.",
        );
      const created = await v2.post<{ id: string; connect_url: string }>('/browser-sessions', {
        agent_id: agentId,
        allowed_origins: [window.location.origin],
      });
      setState((s) => ({ ...s, sessionId: created.id }));
      const c = await VoiceClient.connect({ url: created.connect_url, microphone: mode === 'microphone' });
      client.current = c;
      c.on('transcript', () => setState((s) => ({ ...s, lines: c.transcript.map((l) => ({ ...l })) })));
      c.on('agent', ({ speaking }) => setState((s) => ({ ...s, speaking })));
      // What hears the microphone matters to a spoken session only: typed turns need no recogniser.
      if (mode === 'microphone') c.on('speech', ({ stt }) => setState((s) => ({ ...s, hearing: stt })));
      c.on('tool', (e) =>
        setState((s) => {
          if (e.status === 'running') return { ...s, tools: [...s.tools, { ...e, key: ++toolKey.current }] };
          // The last running call of this tool is the one that finished.
          const tools = [...s.tools];
          for (let i = tools.length - 1; i >= 0; i--)
            if (tools[i].name === e.name && tools[i].status === 'running') {
              tools[i] = { ...tools[i], ...e, arguments: e.arguments ?? tools[i].arguments };
              return { ...s, tools };
            }
          return { ...s, tools: [...tools, { ...e, key: ++toolKey.current }] };
        }),
      );
      c.on('ended', ({ reason }) => {
        client.current = null;
        setState((s) => ({ ...s, phase: 'ended', speaking: false, endReason: reason }));
      });
      c.on('error', (e) => setState((s) => ({ ...s, error: new ApiError(0, 'ERROR', e.message) })));
      setState((s) => ({
        ...s,
        phase: c.ended ? 'ended' : 'live',
        lines: c.transcript.map((l) => ({ ...l })),
      }));
    } catch (e) {
      setState((s) => ({ ...s, phase: s.sessionId ? 'ended' : 'idle', error: startError(e, blocked) }));
    } finally {
      document.removeEventListener('securitypolicyviolation', onViolation);
    }
  };

  return {
    state,
    start,
    end: () => client.current?.end(),
    mute: (muted: boolean) => {
      client.current?.mute(muted);
      setState((s) => ({ ...s, muted }));
    },
    say: (text: string) => {
      try {
        client.current?.sendText?.(text);
        setState((s) => ({ ...s, error: null }));
      } catch (e) {
        setState((s) => ({ ...s, error: startError(e, []) }));
      }
    },
    /** The person is typing a caller line: the agent does not take their silence for absence. */
    typing: () => client.current?.typing?.(),
    reset: () => setState(INITIAL),
  };
}

/**
 * Said only when it is so: the session hears the microphone with the signal engine (`offline`), which cannot
 * understand a person. Links where the team fixes it: the agent's Transcriber tab and the Provider keys page.
 */
export function SignalEngineWarning({ agentId }: { agentId: string }) {
  return (
    <p class="card warning" role="alert">
      This agent will not understand you: it hears with the offline development recogniser, which understands
      only the platform’s own synthetic speech, not a person. Give it a transcriber on its{' '}
      <a {...linkProps(`/agents/${encodeURIComponent(agentId)}?section=transcriber`)}>Transcriber tab</a>,
      with that provider’s key on the <a {...linkProps('/provider-keys')}>Provider keys page</a>.
    </p>
  );
}

/** What the session shows: the recogniser's warning, who speaks, the transcript, the tools, the session's page. */
export function SessionView({
  state,
  label,
  agentId,
}: {
  state: VoiceSessionState;
  label: string;
  /** The agent talked to, for the warning's link to its Transcriber tab. */
  agentId: string;
}) {
  return (
    <>
      <ErrorNotice error={state.error} />
      {state.hearing === 'offline' && <SignalEngineWarning agentId={agentId} />}
      {state.phase !== 'idle' && (
        <p role="status" class="muted">
          {state.phase === 'starting'
            ? 'Connecting…'
            : state.phase === 'live'
              ? state.speaking
                ? 'The agent is speaking'
                : 'Listening'
              : `Ended${state.endReason ? ` (${words(state.endReason)})` : ''}`}
        </p>
      )}
      {(state.lines.length > 0 || state.phase === 'live') && (
        <ol class="timeline" aria-live="polite" aria-label={label}>
          {state.lines.map((l, i) => (
            <li key={i} class={l.role === 'agent' ? 'bot' : 'user'}>
              <div class="meta">
                {l.role === 'agent' ? 'Agent' : 'Caller'}
                {l.final ? '' : ' · hearing…'}
              </div>
              {l.text}
            </li>
          ))}
        </ol>
      )}
      {state.tools.length > 0 && (
        <table>
          <caption>Tool calls</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Arguments</th>
              <th scope="col">Outcome</th>
              <th scope="col">Latency</th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {state.tools.map((t) => (
              <tr key={t.key} data-testid="live-tool">
                <td>{t.name}</td>
                <td>
                  {t.arguments_truncated ? (
                    <span class="muted">too large to show</span>
                  ) : t.arguments ? (
                    <code>{JSON.stringify(t.arguments)}</code>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{t.status === 'running' ? 'running…' : t.outcome ? words(t.outcome) : 'done'}</td>
                <td>{t.latency_ms !== undefined ? `${t.latency_ms} ms` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {state.sessionId && state.phase === 'ended' && (
        <p>
          <a {...linkProps(`/calls/web/${encodeURIComponent(state.sessionId)}`)}>Open the session's page</a>{' '}
          (transcript, recording, tool calls with their requests and answers)
        </p>
      )}
    </>
  );
}
