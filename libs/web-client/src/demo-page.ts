import { createHash } from 'node:crypto';

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
label { display: block; margin-top: 0.75rem; font-weight: 600; }
input, select, button { font: inherit; padding: 0.4rem 0.6rem; }
button { margin: 0.75rem 0.5rem 0 0; }
button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #1f6feb; outline-offset: 2px; }
.note { background: #fff8c5; padding: 0.5rem 0.75rem; border-radius: 4px; }
#transcript { list-style: none; padding: 0; }
#transcript li { margin: 0.25rem 0; }
#transcript .interim { color: #666; font-style: italic; }
`.trim();

const SCRIPT = `
import { VoiceClient } from '/sdk/voice-client.js';
const $ = (id) => document.getElementById(id);
let apiKey = '';
let client;

function status(text) { $('status').textContent = text; }

async function api(method, path, body) {
  const res = await fetch('/api/v2' + path, {
    method,
    headers: { Authorization: 'Bearer ' + apiKey, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!json.success) throw new Error((json.error && json.error.message) || 'HTTP ' + res.status);
  return json.data;
}

$('key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  apiKey = $('key').value.trim();
  $('key').value = '';
  try {
    const { agents } = await api('GET', '/agent?limit=100');
    const select = $('agent');
    select.replaceChildren(...agents.map((a) => new Option(a.agent_name + ' (' + a.id + ')', a.id)));
    $('talk').disabled = agents.length === 0;
    status(agents.length ? 'Key accepted. Choose an agent and press Talk.' : 'This account has no agents yet.');
  } catch (error) {
    status('Could not list agents: ' + error.message);
  }
});

function render() {
  const list = $('transcript');
  list.replaceChildren(...client.transcript.map((line) => {
    const li = document.createElement('li');
    li.textContent = (line.role === 'agent' ? 'Agent: ' : 'You: ') + line.text;
    if (!line.final) li.className = 'interim';
    return li;
  }));
}

$('talk').addEventListener('click', async () => {
  $('talk').disabled = true;
  try {
    status('Creating the session...');
    // For the demo only: production pages get the session from their own server, never with an API key.
    const session = await api('POST', '/browser-sessions', {
      agent_id: $('agent').value,
      allowed_origins: [location.origin],
    });
    status('Connecting (allow the microphone)...');
    client = await VoiceClient.connect({ url: session.connect_url });
    $('transcript').replaceChildren();
    client.on('transcript', render);
    client.on('agent', ({ speaking }) => status(speaking ? 'Agent speaking...' : 'Listening...'));
    client.on('tool', ({ name, status: s }) => status('Tool ' + name + ': ' + s));
    client.on('speech', ({ warning }) => warning && status(warning));
    client.on('error', (error) => status('Error: ' + error.message));
    client.on('ended', ({ reason }) => {
      status('Session ended (' + reason + ').');
      $('end').disabled = true;
      $('talk').disabled = false;
    });
    $('end').disabled = false;
    $('end').focus();
    status('Listening...');
  } catch (error) {
    status('Could not start: ' + error.message);
    $('talk').disabled = false;
  }
});

$('end').addEventListener('click', () => client && client.end());
`.trim();

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The demo page's Content-Security-Policy: its own inline script and style only, the SDK, the voice app's socket. */
export const DEMO_PAGE_CSP = [
  "default-src 'none'",
  `script-src 'self' ${sha256(SCRIPT)} blob:`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self' ws: wss:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The development demo of browser voice sessions (the gateway serves it at GET /demo/voice in development): an API key kept in the page's memory
 * only, an agent picker, Talk and End, the live transcript.
 */
export const DEMO_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Voice session demo</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Talk to an agent</h1>
<p class="note">Development demo. It creates the session from this page with your API key, which stays in
this page's memory only. A production page must never hold an API key: its own server calls
<code>POST /api/v2/browser-sessions</code> and hands the page the <code>connect_url</code> only.</p>
<form id="key-form">
<label for="key">API key</label>
<input id="key" type="password" autocomplete="off" required placeholder="rg_live_..." size="40">
<button type="submit">Use key</button>
</form>
<label for="agent">Agent</label>
<select id="agent"><option value="">Enter a key first</option></select>
<div>
<button id="talk" type="button" disabled>Talk</button>
<button id="end" type="button" disabled>End</button>
</div>
<p id="status" role="status" aria-live="polite">Enter an API key.</p>
<h2>Transcript</h2>
<ul id="transcript" aria-live="polite"></ul>
</main>
<script type="module">${SCRIPT}</script>
</body>
</html>
`;
