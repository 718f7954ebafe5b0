// The one-tag widget (docs/web-client.md): the build wraps the client and this file in one classic script,
// /sdk/widget.js, which turns its own <script> tag into a talk button:
//
//   <script src="https://gateway.example.com/sdk/widget.js" data-agent-id="..." data-public-key="pk_live_..."></script>
//
// A click creates a browser session with the publishable key (POST /api/v2/web/sessions on the gateway the
// script came from) and connects to it; the transcript is shown beside the button and read out to screen
// readers as it grows. Optional attributes: data-label (the button's text), data-noise-suppression="false" and
// data-echo-cancellation="false" (for a headset).
import { VoiceClient } from './voice-client';

/** Where the widget's gateway lives: the script's own URL, up to /sdk/widget.js. */
function widgetApiBase(src: string): string {
  const url = new URL(src, document.baseURI);
  const path = url.pathname.replace(/\/sdk\/widget\.js$/, '');
  return `${url.origin}${path}`.replace(/\/+$/, '');
}

/** The error message of the gateway's envelope, or what went wrong with the request. */
async function widgetErrorOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // Not the envelope: the status says enough.
  }
  return `The voice service answered ${res.status}`;
}

function widgetElement<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  style: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.setAttribute('style', style);
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Builds the widget for one script tag and returns its root element. */
function mountWidget(script: HTMLScriptElement): void {
  const agentId = script.dataset.agentId ?? '';
  const publicKey = script.dataset.publicKey ?? '';
  const label = script.dataset.label || 'Talk to us';
  const base = widgetApiBase(script.src);
  const audio = {
    noiseSuppression: script.dataset.noiseSuppression !== 'false',
    echoCancellation: script.dataset.echoCancellation !== 'false',
  };

  const root = widgetElement(
    'section',
    'font:16px/1.4 system-ui,sans-serif;color:#111827;background:#ffffff;border:1px solid #6b7280;' +
      'border-radius:8px;padding:12px;max-width:360px',
  );
  root.className = 'vap-widget';
  root.setAttribute('aria-label', 'Voice assistant');
  const button = widgetElement(
    'button',
    'font:inherit;color:#ffffff;background:#1d4ed8;border:0;border-radius:6px;padding:8px 16px;cursor:pointer',
    label,
  );
  button.type = 'button';
  button.className = 'vap-widget-button';
  const status = widgetElement('p', 'margin:8px 0 0', 'Press the button and allow the microphone to talk.');
  status.className = 'vap-widget-status';
  status.setAttribute('role', 'status');
  const transcript = widgetElement(
    'ol',
    'list-style:none;margin:8px 0 0;padding:0;max-height:240px;overflow:auto',
  );
  transcript.className = 'vap-widget-transcript';
  transcript.setAttribute('aria-label', 'Conversation');
  transcript.setAttribute('aria-live', 'polite');
  transcript.tabIndex = 0;
  root.append(button, status, transcript);
  if (script.parentNode && script.parentNode !== document.head) {
    script.parentNode.insertBefore(root, script.nextSibling);
  } else if (document.body) {
    document.body.appendChild(root);
  } else {
    document.addEventListener('DOMContentLoaded', () => document.body.appendChild(root));
  }

  let client: VoiceClient | null = null;
  let busy = false;
  const setIdle = (message: string) => {
    client = null;
    busy = false;
    button.textContent = label;
    button.disabled = false;
    status.textContent = message;
  };
  const render = (lines: readonly { role: string; text: string; final: boolean }[]) => {
    transcript.replaceChildren(
      ...lines
        .filter((line) => line.text)
        .map((line) => {
          const item = widgetElement('li', 'margin:4px 0');
          item.className = `vap-widget-line vap-widget-${line.role}`;
          item.dataset.role = line.role;
          item.dataset.final = String(line.final);
          const who = widgetElement('strong', '', line.role === 'agent' ? 'Agent: ' : 'You: ');
          item.append(who, document.createTextNode(line.text));
          return item;
        }),
    );
    transcript.scrollTop = transcript.scrollHeight;
  };

  button.addEventListener('click', async () => {
    if (busy) return;
    if (client) {
      button.disabled = true;
      await client.end();
      return;
    }
    if (!agentId || !publicKey) {
      status.textContent = 'This widget needs data-agent-id and data-public-key on its script tag.';
      return;
    }
    busy = true;
    button.disabled = true;
    status.textContent = 'Connecting…';
    try {
      const res = await fetch(`${base}/api/v2/web/sessions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${publicKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ agent_id: agentId }),
      });
      if (!res.ok) {
        setIdle(`Could not start: ${await widgetErrorOf(res)}`);
        return;
      }
      const session = ((await res.json()) as { data: { connect_url: string } }).data;
      const connected = await VoiceClient.connect({ url: session.connect_url, audio });
      client = connected;
      busy = false;
      connected.on('transcript', () => render(connected.transcript));
      connected.on('ended', () => setIdle('The conversation ended.'));
      connected.on('error', (error) => {
        status.textContent = error.message;
      });
      render(connected.transcript);
      button.textContent = 'End conversation';
      button.disabled = false;
      status.textContent = 'Connected: speak now.';
    } catch (error) {
      setIdle(`Could not start: ${(error as Error).message}`);
    }
  });
}

const widgetScript = document.currentScript;
if (widgetScript instanceof HTMLScriptElement) mountWidget(widgetScript);
