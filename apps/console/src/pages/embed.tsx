// Embedding an agent on the partner's own web page: the snippet for the page (the platform's web client, a Talk
// button, the transcript) and the small server route that creates each session with the partner's API key and
// hands the page only its connect_url, with the agent and the allowed origins filled in; and the same flow run
// here, through the console's session. Beside them the one-tag widget: one <script> with the agent and a
// publishable key (made here or on the API keys page), no server of the partner's.
import { useState } from 'preact/hooks';
import { useAgents } from '../components/agent-names.js';
import { CopyButton, ErrorNotice, useId } from '../components/ui.js';
import { CLIENT_MODULE } from '../components/voice-session.js';
import { linkProps } from '../router.js';
import { can, Session } from '../session.js';
import { TalkPanel } from './agent-try-it.js';
import { readOrigins } from './embed-origins.js';
import { CreatedPublishableKey, PublishableKeyForm } from './publishable-keys.js';

/** What the one-tag snippet shows until a publishable key is made here. */
export const PUBLISHABLE_KEY_PLACEHOLDER = 'pk_live_YOUR_PUBLISHABLE_KEY';

/** The whole of the one-tag embed: the gateway's widget with the agent and a publishable key. */
export function widgetSnippet(gateway: string, agentId: string, publicKey: string): string {
  return `<script src="${gateway}/sdk/widget.js" data-agent-id="${agentId}" data-public-key="${publicKey}"></script>`;
}

/** Where the snippets have the partner's server answer the page. */
const TOKEN_ROUTE = '/voice-session';

/**
 * An import statement of a snippet (built here, not written at the start of a line: the console's build refuses
 * module text whose lines look like bare imports).
 */
const importLine = (what: string, from: string) => `import ${what} from '${from}';`;

export function pageSnippet(gateway: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Talk to us</title>
</head>
<body>
<main>
  <h1>Talk to us</h1>
  <!-- The Talk button, what is happening, and the conversation (paste this part into a page of yours). -->
  <button id="vap-talk" type="button">Talk to us</button>
  <button id="vap-end" type="button" hidden>End</button>
  <p id="vap-status" role="status"></p>
  <ol id="vap-transcript" aria-live="polite"></ol>
</main>

<script type="module">
  ${importLine('{ VoiceClient }', `${gateway}${CLIENT_MODULE}`)}

  const talk = document.getElementById('vap-talk');
  const end = document.getElementById('vap-end');
  const status = document.getElementById('vap-status');
  const transcript = document.getElementById('vap-transcript');
  let client = null;

  talk.addEventListener('click', async () => {
    talk.disabled = true;
    status.textContent = 'Connecting…';
    try {
      // Your server creates the session with your API key and answers only its connect_url.
      const res = await fetch('${TOKEN_ROUTE}', { method: 'POST' });
      // Your server says why it could not (its API key refused, the platform away).
      if (!res.ok) throw new Error(await res.json().then((b) => b.error, () => null) || 'the voice session could not be created');
      const { connect_url } = await res.json();
      client = await VoiceClient.connect({ url: connect_url });
      client.on('transcript', () => {
        transcript.replaceChildren(
          ...client.transcript.map((line) => {
            const item = document.createElement('li');
            item.textContent = (line.role === 'agent' ? 'Agent: ' : 'You: ') + line.text;
            return item;
          }),
        );
      });
      client.on('agent', ({ speaking }) => (status.textContent = speaking ? 'Speaking…' : 'Listening…'));
      client.on('ended', () => {
        status.textContent = 'The conversation ended.';
        talk.disabled = false;
        end.hidden = true;
      });
      end.hidden = false;
      status.textContent = 'Listening…';
    } catch (error) {
      status.textContent = 'Could not start: ' + error.message;
      talk.disabled = false;
    }
  });
  end.addEventListener('click', () => client && client.end());
</script>
</body>
</html>`;
}

export function serverSnippet(gateway: string, agentId: string, origins: string[]): string {
  return `// server.mjs: npm install express, then VAP_API_KEY=rg_live_... node server.mjs (Node 18 or later; PORT, default 8080)
${importLine('express', 'express')}

const PLATFORM = '${gateway}';
const AGENT_ID = '${agentId}';
// The pages allowed to open the session (exactly as the browser sends Origin).
const ALLOWED_ORIGINS = ${JSON.stringify(origins)};

const app = express();

// Each visitor's Talk asks here for a session. The API key stays on this server; the page gets only the
// session's connect_url (a one-time link valid for 60 seconds). Sessions are billed like calls: protect this
// route as you protect the rest of your site (signed-in visitors, a rate limit).
app.post('${TOKEN_ROUTE}', async (req, res) => {
  const answer = await fetch(\`\${PLATFORM}/api/v2/browser-sessions\`, {
    method: 'POST',
    headers: {
      Authorization: \`Bearer \${process.env.VAP_API_KEY}\`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ agent_id: AGENT_ID, allowed_origins: ALLOWED_ORIGINS }),
  });
  const body = await answer.json();
  if (!answer.ok) {
    console.error('creating a voice session failed', answer.status, body.error);
    // What the page shows: enough for your team to act on, nothing of the key.
    const why =
      answer.status === 401 || answer.status === 403
        ? 'this server’s API key (VAP_API_KEY) was refused: ' + (body.error?.message ?? answer.status)
        : 'the platform answered ' + answer.status;
    return res.status(502).json({ error: 'The voice session could not be created: ' + why });
  }
  res.json({ connect_url: body.data.connect_url });
});

// Serve your page (the page snippet as public/index.html) from here too, or from your own site.
app.use(express.static('public'));
const port = Number(process.env.PORT ?? 8080);
app.listen(port, () => console.log(\`http://localhost:\${port}\`));`;
}

function Snippet({ title, code, testId }: { title: string; code: string; testId: string }) {
  const id = useId('snippet');
  return (
    <section class="card" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <pre class="code" tabIndex={0} data-testid={testId} aria-labelledby={id}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={`Copy: ${title}`} />
    </section>
  );
}

export function EmbedPage({ session }: { session: Session }) {
  const agents = useAgents();
  const [agentId, setAgentId] = useState('');
  const [originsText, setOriginsText] = useState('');
  const gateway = window.location.origin;
  const { origins, problems } = readOrigins(originsText);
  const agent = agents.data?.find((a) => a.id === agentId) ?? null;
  const [publishable, setPublishable] = useState<CreatedPublishableKey | null>(null);
  const [makingKey, setMakingKey] = useState(false);
  const keyForAgent = publishable && agent && publishable.agent_ids.includes(agent.id) ? publishable : null;
  return (
    <>
      <h2>Embed on your site</h2>
      <p>
        Let visitors of your web page talk to an agent with their microphone. Either paste one tag with a
        publishable key (public: it may only start conversations with its agents, from its pages), or have
        your page ask your own server, which creates each session with your API key (never put the API key in
        the page) and answers only the session's connect_url.
      </p>
      <ErrorNotice error={agents.error} />
      <form class="card" onSubmit={(e) => e.preventDefault()} aria-label="What to embed">
        <div class="field">
          <label for="embed-agent">Agent</label>
          <select id="embed-agent" value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)}>
            <option value="">Choose an agent…</option>
            {(agents.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.agent_name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="embed-origins">Your pages' origins</label>
          <textarea
            id="embed-origins"
            value={originsText}
            placeholder="https://www.example.com"
            aria-describedby="embed-origins-hint embed-origins-error"
            aria-invalid={problems.length > 0}
            onInput={(e) => setOriginsText(e.currentTarget.value)}
          />
          <small id="embed-origins-hint" class="muted">
            One per line, as the browser shows them: https://www.example.com (no path). http only for
            localhost while you develop.
          </small>
          <div id="embed-origins-error" class="error" role="alert">
            {problems.length ? (
              <ul>
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : null}
          </div>
        </div>
      </form>
      {!agent ? (
        <p class="muted">Choose an agent to see the code for your page and your server.</p>
      ) : (
        <>
          <section class="card" aria-labelledby="embed-widget-h">
            <h3 id="embed-widget-h">One tag, no server</h3>
            <p>
              Paste this tag where the Talk button should be. It loads the widget from this platform and
              starts each conversation with a publishable key, which works only for the agents and pages it
              names, within its limits and your balance.{' '}
              {keyForAgent ? (
                <>The key “{keyForAgent.name}” you just made is filled in.</>
              ) : (
                <>
                  Replace <code>{PUBLISHABLE_KEY_PLACEHOLDER}</code> with a publishable key for this agent and
                  your pages: <a {...linkProps('/keys')}>create a publishable key</a> on the API keys page
                  {can.manageKeys(session) ? ', or here' : ''}.
                </>
              )}
            </p>
            <pre
              class="code"
              tabIndex={0}
              data-testid="embed-widget-snippet"
              aria-labelledby="embed-widget-h"
            >
              <code>
                {widgetSnippet(gateway, agent.id, keyForAgent?.public_key ?? PUBLISHABLE_KEY_PLACEHOLDER)}
              </code>
            </pre>
            <CopyButton
              text={widgetSnippet(gateway, agent.id, keyForAgent?.public_key ?? PUBLISHABLE_KEY_PLACEHOLDER)}
              label="Copy: the one tag"
            />{' '}
            {can.manageKeys(session) && !keyForAgent && !makingKey && (
              <button type="button" class="secondary" onClick={() => setMakingKey(true)}>
                Create a publishable key for this agent
              </button>
            )}
          </section>
          {makingKey && !keyForAgent && (
            <PublishableKeyForm
              key={agent.id}
              agentIds={[agent.id]}
              originsText={origins.join('\n')}
              onCreated={(k) => {
                setPublishable(k);
                setMakingKey(false);
              }}
            />
          )}
          <p>
            Or with your own server: save the page as <code>public/index.html</code> beside the server. The
            server runs with an API key of this account (<code>VAP_API_KEY</code>), kept on the server:{' '}
            <a {...linkProps('/keys')}>create an API key</a> first.
          </p>
          <Snippet title="Your web page" code={pageSnippet(gateway)} testId="embed-page-snippet" />
          <Snippet
            title="Your server's session route (Node and Express)"
            code={serverSnippet(
              gateway,
              agent.id,
              origins.length && !problems.length ? origins : ['https://www.example.com'],
            )}
            testId="embed-server-snippet"
          />
          {can.write(session) && (
            <section class="card" aria-labelledby="embed-try-h">
              <h3 id="embed-try-h">Try it here</h3>
              <p class="muted">
                The same flow on this page: the console creates the session for you (allowed on this console's
                address), so no API key is involved.
              </p>
              <TalkPanel key={agent.id} agent={agent} heading={`Talk to ${agent.agent_name}`} />
            </section>
          )}
        </>
      )}
    </>
  );
}
