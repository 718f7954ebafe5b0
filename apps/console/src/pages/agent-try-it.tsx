// Trying an agent from its page: talk to it with the microphone, script a conversation by typing the caller's
// turns (the recommended way to try tools: each tool call shows its arguments and outcome as it happens), or
// place a phone call on the sandbox carrier, whose number endings script the callee.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.js';
import { ErrorNotice, Field } from '../components/ui.js';
import { SessionView, useVoiceSession } from '../components/voice-session.js';
import { navigate } from '../router.js';
import { can, Session } from '../session.js';

export interface TryItAgent {
  id: string;
  agent_name: string;
}

export function AgentTryIt({ session, agent }: { session: Session; agent: TryItAgent | null }) {
  if (!agent || !can.write(session)) return null;
  return (
    <section class="card" aria-labelledby="try-h">
      <h3 id="try-h">Try this agent</h3>
      <ScriptedTest agent={agent} />
      <TalkPanel agent={agent} />
      <SandboxCall agent={agent} />
    </section>
  );
}

/** Microphone to the agent, in this browser. */
export function TalkPanel({ agent, heading = 'Talk' }: { agent: TryItAgent; heading?: string }) {
  const voice = useVoiceSession();
  const { phase, muted } = voice.state;
  const busy = phase === 'starting' || phase === 'live';
  return (
    <div class="try-panel" role="group" aria-labelledby={`talk-h-${agent.id}`}>
      <h4 id={`talk-h-${agent.id}`}>{heading}</h4>
      <p class="muted">
        Talk to {agent.agent_name} with your microphone, as a visitor of your web page would. It is a web
        session: billed like a call and listed under Calls.
      </p>
      <div class="row">
        {!busy && (
          <button type="button" onClick={() => voice.start(agent.id, 'microphone')}>
            {phase === 'ended' ? 'Talk again' : 'Talk'}
          </button>
        )}
        {phase === 'live' && (
          <>
            <button type="button" class="secondary" aria-pressed={muted} onClick={() => voice.mute(!muted)}>
              {muted ? 'Unmute' : 'Mute'}
            </button>
            <button type="button" class="danger" onClick={() => voice.end()}>
              End
            </button>
          </>
        )}
      </div>
      <SessionView state={voice.state} label={`Conversation with ${agent.agent_name}`} agentId={agent.id} />
    </div>
  );
}

/** The caller's turns typed one by one: the agent answers and calls its tools as on a call. */
function ScriptedTest({ agent }: { agent: TryItAgent }) {
  const voice = useVoiceSession();
  const [text, setText] = useState('');
  const { phase } = voice.state;
  const send = (e: Event) => {
    e.preventDefault();
    const line = text.trim();
    if (!line || phase !== 'live') return;
    voice.say(line);
    setText('');
  };
  return (
    <div class="try-panel" role="group" aria-labelledby="script-h">
      <h4 id="script-h">Scripted test (recommended for tools)</h4>
      <p class="muted">
        Type what the caller says, turn by turn, and read the agent's answers and every tool call it makes:
        the arguments it sent and the outcome. No microphone needed.
      </p>
      <p class="muted" data-testid="offline-model-note">
        On the offline model (no language model server), the agent calls one of its functions when your line
        names it (“check order, order number is 42”) or is about it and holds what it needs (“Where is my
        order 12345?” for a function described as looking up an order by its number).
      </p>
      {phase !== 'starting' && phase !== 'live' && (
        <button type="button" onClick={() => voice.start(agent.id, 'text')}>
          {phase === 'ended' ? 'Start a new scripted test' : 'Start scripted test'}
        </button>
      )}
      {phase === 'live' && (
        <form class="row" onSubmit={send}>
          <div class="field">
            <label for={`caller-line-${agent.id}`}>The caller says</label>
            <input
              id={`caller-line-${agent.id}`}
              value={text}
              maxLength={1000}
              autocomplete="off"
              onInput={(e) => {
                setText(e.currentTarget.value);
                voice.typing();
              }}
            />
          </div>
          <button type="submit" disabled={!text.trim()}>
            Send
          </button>
          <button type="button" class="danger" onClick={() => voice.end()}>
            End test
          </button>
        </form>
      )}
      <SessionView
        state={voice.state}
        label={`Scripted conversation with ${agent.agent_name}`}
        agentId={agent.id}
      />
    </div>
  );
}

/** A phone call on the sandbox carrier, followed live on the call's page. */
function SandboxCall({ agent }: { agent: TryItAgent }) {
  const [to, setTo] = useState('+919000000000');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const start = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const call = await v2.post<{ call_id: string }>('/calls/start', { agent_id: agent.id, to_number: to });
      navigate(`/calls/${call.call_id}`);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="try-panel" onSubmit={start} aria-labelledby="sandbox-h">
      <h4 id="sandbox-h">Phone call on the sandbox</h4>
      <p class="muted">
        A simulated phone plays the callee, scripted by the number's last two digits (00 a short conversation,
        01 no answer, 04 voicemail; the{' '}
        <a href="/api/v2/docs" target="_blank" rel="noopener">
          API reference
        </a>{' '}
        and the API guide list them all). To try tools, the scripted test above is the easier way.
      </p>
      <ErrorNotice error={error} />
      <div class="row">
        <Field label="Sandbox number" name="to_number" error={error}>
          {(p) => <input {...p} type="tel" value={to} onInput={(e) => setTo(e.currentTarget.value)} />}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Placing…' : 'Call on the sandbox'}
        </button>
      </div>
    </form>
  );
}
