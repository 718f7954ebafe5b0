/**
 * The browser client (libs/web-client) in a real Chromium: a test page imports the built voice-client.js from a
 * local HTTP server and connects to a local WebSocket server that speaks the browser session protocol
 * (docs/web-client.md) in place of the platform's voice app. The fake microphone plays what the platform's
 * offline synthesizer says, so the text modem in it proves the audio's path end to end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { pcm16FromBuffer, pcm16ToBuffer, resamplePcm16, sineWave, TextSignalDecoder } from '@vap/media';
import { workspaceRoot } from '@vap/testing';
import { DEMO_PAGE_CSP, DEMO_PAGE_HTML } from '@vap/web-client';
import {
  clientProbeScript,
  launchBrowser,
  writeSpokenWav,
  type LaunchedBrowser,
  type SpokenWav,
} from '../../support/browser';

const SAID = 'hello from the browser';
const WIRE_RATE = 16000;
const FRAME_BYTES = 640;

/** The page: the client as partners import it, with the probes the test reads. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>voice client test</title>
<script type="module">${clientProbeScript('/voice-client.js')}</script>`;

interface ServerSide {
  socket: WebSocket;
  frames: { at: number; bytes: Buffer }[];
  texts: { at: number; message: Record<string, unknown> }[];
  closed: Promise<number>;
}

function waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = () => {
      const value = check();
      if (value) return resolve(value);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

/** `ms` of a 440 Hz tone as the server's 20 ms binary frames. */
function toneFrames(ms: number): Buffer[] {
  const pcm = pcm16ToBuffer(sineWave(440, (WIRE_RATE * ms) / 1000, WIRE_RATE, 10_000));
  const frames: Buffer[] = [];
  for (let at = 0; at < pcm.length; at += FRAME_BYTES) frames.push(pcm.subarray(at, at + FRAME_BYTES));
  return frames;
}

// Page objects are read loosely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe('web client in a real browser', () => {
  let http: Server;
  let wss: WebSocketServer;
  let base: string;
  let wav: SpokenWav;
  let launched: LaunchedBrowser;
  const sessions: ServerSide[] = [];
  let demoApiCalls: { method: string; url: string; auth?: string; body: string }[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    const built = join(workspaceRoot(), 'dist', 'libs', 'web-client', 'voice-client.js');
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
    const moduleSource = readFileSync(built);
    const apiCalls: { method: string; url: string; auth?: string; body: string }[] = [];
    demoApiCalls = apiCalls;
    http = createServer((req, res) => {
      const json = (data: unknown) =>
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ success: true, data }));
      if (req.url === '/voice-client.js' || req.url === '/sdk/voice-client.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(moduleSource);
      } else if (req.url === '/') {
        res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE);
      } else if (req.url === '/demo/voice') {
        // The gateway's development demo page, with the gateway's headers; the API below stands in for it.
        res
          .writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': DEMO_PAGE_CSP })
          .end(DEMO_PAGE_HTML);
      } else if (req.url?.startsWith('/api/v2/')) {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          apiCalls.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
          if (req.method === 'GET' && req.url!.startsWith('/api/v2/agent?')) {
            json({ agents: [{ id: 'agent-1', agent_name: 'Support' }], next_cursor: null });
          } else if (req.method === 'POST' && req.url === '/api/v2/browser-sessions') {
            json({
              id: 'test-session',
              status: 'pending',
              connect_url: `${base.replace('http', 'ws')}/browser/test-session?token=t`,
            });
          } else res.writeHead(404).end();
        });
      } else res.writeHead(404).end();
    });
    wss = new WebSocketServer({ noServer: true });
    http.on('upgrade', (req, socket, head) => {
      // A refusal as the voice app makes it: the handshake completes, the socket closes with the cause.
      if (req.url?.startsWith('/browser/refused-session?token=')) {
        wss.handleUpgrade(req, socket, head, (ws) => ws.close(4403, 'origin_not_allowed'));
        return;
      }
      if (!req.url?.startsWith('/browser/test-session?token=')) return socket.destroy();
      wss.handleUpgrade(req, socket, head, (ws) => {
        const side: ServerSide = {
          socket: ws,
          frames: [],
          texts: [],
          closed: new Promise((resolve) => ws.on('close', (code) => resolve(code))),
        };
        ws.on('message', (data: RawData, isBinary) => {
          const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
          if (isBinary) side.frames.push({ at: Date.now(), bytes });
          else side.texts.push({ at: Date.now(), message: JSON.parse(bytes.toString('utf8')) });
        });
        ws.send(JSON.stringify({ type: 'session.started', session_id: 'test-session' }));
        sessions.push(side);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    wav = await writeSpokenWav(SAID);
    launched = await launchBrowser({ micWav: wav.path });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(pages.map((p) => p.close().catch(() => undefined)));
    await launched?.close();
    wss?.close();
    await new Promise((resolve) => http?.close(resolve));
    wav?.remove();
  });

  async function open(audio?: { echoCancellation?: boolean; noiseSuppression?: boolean }) {
    const page = await launched.browser.newPage();
    pages.push(page);
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(`${base}/`);
    await page.waitForFunction(() => (globalThis as unknown as { ready?: boolean }).ready === true);
    const before = sessions.length;
    await page.evaluate(
      ([url, a]) =>
        (globalThis as unknown as { start: (u: string, a: unknown) => Promise<void> }).start(url, a),
      [`${base.replace('http', 'ws')}/browser/test-session?token=t`, audio] as const,
    );
    const side = await waitFor('the session socket', () => sessions[before]);
    return { page, side };
  }

  const level = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { level: () => number }).level());
  const events = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { events: { name: string; event: unknown }[] }).events);

  function decodeText(side: ServerSide): string | undefined {
    const pcm16k = pcm16FromBuffer(Buffer.concat(side.frames.map((f) => f.bytes)));
    const pcm8k = resamplePcm16(pcm16k, WIRE_RATE, 8000);
    return new TextSignalDecoder(8000).push(pcm8k)[0];
  }

  it('sends the microphone as 20 ms PCM16 frames at 16 kHz, 50 a second, carrying what was said', async () => {
    // Chromium's noise suppression treats the modem's steady tones as noise: see docs/web-client.md.
    const { page, side } = await open({ noiseSuppression: false, echoCancellation: false });
    const text = await waitFor('the spoken text in the mic frames', () => decodeText(side), 15_000);
    expect(text).toBe(SAID);
    expect(side.frames.every((f) => f.bytes.length === FRAME_BYTES)).toBe(true);
    // Rate over two seconds of the steady part (the first frames may come in a burst as the audio starts).
    await waitFor('2.4 s of frames', () => side.frames.length >= 120);
    const steady = side.frames.slice(10, 120);
    const seconds = (steady[steady.length - 1].at - steady[0].at) / 1000;
    const perSecond = (steady.length - 1) / seconds;
    expect(perSecond).toBeGreaterThan(42);
    expect(perSecond).toBeLessThan(58);
    await page.close();
  });

  it('plays the agent audio, stops it within 100 ms on clear, and echoes marks once their audio played', async () => {
    const { page, side } = await open();
    expect(await level(page)).toBeLessThan(0.01);

    // 400 ms of tone then a mark: the mark comes back once the tone has played, not before.
    const sentAt = Date.now();
    for (const frame of toneFrames(400)) side.socket.send(frame);
    side.socket.send(JSON.stringify({ type: 'mark', name: 'first' }));
    let heard = 0;
    const firstMark = () => side.texts.find((t) => t.message.type === 'played' && t.message.name === 'first');
    while (!firstMark() && Date.now() - sentAt < 5000) heard = Math.max(heard, await level(page));
    const played = firstMark();
    expect(played).toBeDefined();
    expect(played!.at - sentAt).toBeGreaterThanOrEqual(380);
    expect(heard).toBeGreaterThan(0.05);

    // 3 s of tone and a mark, then a clear once it plays: silence within 100 ms, the pending mark released.
    for (const frame of toneFrames(3000)) side.socket.send(frame);
    side.socket.send(JSON.stringify({ type: 'mark', name: 'second' }));
    const playing = Date.now();
    while ((await level(page)) < 0.05) {
      if (Date.now() - playing > 3000) throw new Error('the tone never played');
    }
    side.socket.send(JSON.stringify({ type: 'clear' }));
    await page.waitForFunction(() => (globalThis as unknown as { clears: number[] }).clears.length > 0);
    const silentAfter = await page.evaluate(() => (globalThis as unknown as { clears: number[] }).clears[0]);
    expect(silentAfter).toBeLessThan(100);
    const released = await waitFor('the second mark after clear', () =>
      side.texts.find((t) => t.message.type === 'played' && t.message.name === 'second'),
    );
    // Released by the clear, not by its audio: before the 3 s of tone could have played out (sent at `playing`,
    // so it cannot end sooner). A wall-clock bound on the round trip would measure the machine's load instead.
    expect(released.at).toBeLessThan(playing + 3000);
    await page.close();
  });

  it('turns server messages into events and the live transcript', async () => {
    const { page, side } = await open();
    const send = (m: object) => side.socket.send(JSON.stringify(m));
    send({ type: 'agent.speaking', speaking: true });
    send({ type: 'transcript', role: 'agent', text: 'Hi, how can I help?', final: true });
    send({ type: 'agent.speaking', speaking: false });
    send({ type: 'transcript', role: 'user', text: 'I need', final: false });
    send({ type: 'transcript', role: 'user', text: 'I need a refund', final: true });
    send({ type: 'tool', name: 'lookup_order', status: 'running' });
    send({ type: 'tool', name: 'lookup_order', status: 'done' });
    send({ type: 'something.new', x: 1 });
    await page.waitForFunction(() => (globalThis as unknown as { events: unknown[] }).events.length >= 7);
    expect(await events(page)).toEqual([
      { name: 'agent', event: { speaking: true } },
      { name: 'transcript', event: { role: 'agent', text: 'Hi, how can I help?', final: true } },
      { name: 'agent', event: { speaking: false } },
      { name: 'transcript', event: { role: 'user', text: 'I need', final: false } },
      { name: 'transcript', event: { role: 'user', text: 'I need a refund', final: true } },
      { name: 'tool', event: { name: 'lookup_order', status: 'running' } },
      { name: 'tool', event: { name: 'lookup_order', status: 'done' } },
    ]);
    const state = await page.evaluate(() => {
      const w = globalThis as unknown as { client: { transcript: unknown[]; sessionId: string } };
      return { transcript: w.client.transcript, sessionId: w.client.sessionId };
    });
    expect(state).toEqual({
      sessionId: 'test-session',
      transcript: [
        { role: 'agent', text: 'Hi, how can I help?', final: true },
        { role: 'user', text: 'I need a refund', final: true },
      ],
    });
    await page.close();
  });

  const released = (page: Page) =>
    page.evaluate(() => {
      const w = globalThis as unknown as {
        micStream: { getTracks(): { readyState: string }[] };
        analyser: { context: { state: string } };
      };
      return {
        tracks: w.micStream.getTracks().map((t) => t.readyState),
        audio: w.analyser.context.state,
      };
    });

  it('mute tells the server; end() sends end, closes the socket and releases the mic and audio', async () => {
    const { page, side } = await open();
    await page.evaluate(() =>
      (globalThis as unknown as { client: { mute(m: boolean): void } }).client.mute(true),
    );
    await waitFor('mute', () =>
      side.texts.find((t) => t.message.type === 'mute' && t.message.muted === true),
    );
    await page.evaluate(() => (globalThis as unknown as { client: { end(): Promise<void> } }).client.end());
    await waitFor('end', () => side.texts.find((t) => t.message.type === 'end'));
    expect(await side.closed).toBe(1000);
    expect(await released(page)).toEqual({ tracks: ['ended'], audio: 'closed' });
    expect((await events(page)).filter((e) => e.name === 'ended')).toEqual([
      { name: 'ended', event: { reason: 'user' } },
    ]);
    await page.close();
  });

  it('session.ended from the server fires ended with its reason and releases everything', async () => {
    const { page, side } = await open();
    side.socket.send(JSON.stringify({ type: 'session.ended', reason: 'agent_hangup' }));
    side.socket.close(1000);
    await page.waitForFunction(() =>
      (globalThis as unknown as { events: { name: string }[] }).events.some((e) => e.name === 'ended'),
    );
    expect((await events(page)).filter((e) => e.name === 'ended')).toEqual([
      { name: 'ended', event: { reason: 'agent_hangup' } },
    ]);
    expect(await released(page)).toEqual({ tracks: ['ended'], audio: 'closed' });
    await page.close();
  });

  it('connects without a microphone and sends typed lines; a refusal rejects with its cause, code and advice', async () => {
    const page = await launched.browser.newPage();
    pages.push(page);
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(`${base}/`);
    await page.waitForFunction(() => (globalThis as unknown as { ready?: boolean }).ready === true);
    const wsBase = base.replace('http', 'ws');
    type Page$ = {
      VoiceClient: { connect(o: object): Promise<Record<string, Any>> };
      textClient: Record<string, Any>;
      textEvents: { name: string; event: unknown }[];
      micStream?: unknown;
    };

    const refused = await page.evaluate(async (url) => {
      try {
        await (globalThis as unknown as Page$).VoiceClient.connect({ url, microphone: false });
        return null;
      } catch (e) {
        const error = e as Error & { reason: string; code: number };
        return { name: error.name, message: error.message, reason: error.reason, code: error.code };
      }
    }, `${wsBase}/browser/refused-session?token=t`);
    expect(refused).toEqual({
      name: 'VoiceClientError',
      message: `This page's origin ${base} is not in the session's allowed_origins. Add it when your server creates the session.`,
      reason: 'origin_not_allowed',
      code: 4403,
    });

    const before = sessions.length;
    await page.evaluate(async (url) => {
      const w = globalThis as unknown as Page$;
      const client = await w.VoiceClient.connect({ url, microphone: false });
      w.textEvents = [];
      for (const name of ['transcript', 'tool', 'error']) {
        client.on(name, (event: unknown) =>
          w.textEvents.push({
            name,
            event:
              event instanceof Error
                ? { message: event.message, reason: (event as Any).reason, fatal: (event as Any).fatal }
                : event,
          }),
        );
      }
      w.textClient = client;
    }, `${wsBase}/browser/test-session?token=t`);
    const side = await waitFor('the session socket', () => sessions[before]);
    // The browser never asked for the microphone; the client told the platform it sends no audio.
    expect(await page.evaluate(() => (globalThis as unknown as Page$).micStream === undefined)).toBe(true);
    await waitFor('the mute', () =>
      side.texts.find((t) => t.message.type === 'mute' && t.message.muted === true),
    );
    expect(await page.evaluate(() => (globalThis as unknown as Page$).textClient.muted)).toBe(true);

    await page.evaluate(() => (globalThis as unknown as Page$).textClient.sendText('  Check order 42  '));
    const typed = await waitFor('the typed line', () =>
      side.texts.find((t) => t.message.type === 'user_text'),
    );
    expect(typed.message).toEqual({ type: 'user_text', text: 'Check order 42' });
    // A line over 1000 characters is refused on the page, before it is sent.
    const tooLong = await page.evaluate(() => {
      try {
        (globalThis as unknown as Page$).textClient.sendText('x'.repeat(1001));
        return null;
      } catch (e) {
        return (e as Error).name;
      }
    });
    expect(tooLong).toBe('RangeError');

    const send = (m: object) => side.socket.send(JSON.stringify(m));
    send({ type: 'transcript', role: 'user', text: 'Check order 42', final: true, typed: true });
    send({ type: 'tool', name: 'check_order', status: 'running', arguments: { order_number: 42 } });
    send({ type: 'tool', name: 'check_order', status: 'done', outcome: 'success', latency_ms: 85 });
    send({ type: 'error', code: 'rate_limited', message: 'typed lines are limited' });
    await page.waitForFunction(
      () => (globalThis as unknown as { textEvents: unknown[] }).textEvents.length >= 4,
    );
    expect(await page.evaluate(() => (globalThis as unknown as Page$).textEvents)).toEqual([
      { name: 'transcript', event: { role: 'user', text: 'Check order 42', final: true } },
      { name: 'tool', event: { name: 'check_order', status: 'running', arguments: { order_number: 42 } } },
      { name: 'tool', event: { name: 'check_order', status: 'done', outcome: 'success', latency_ms: 85 } },
      { name: 'error', event: { message: 'typed lines are limited', reason: 'rate_limited', fatal: false } },
    ]);
    const state = await page.evaluate(() => {
      const client = (globalThis as unknown as Page$).textClient;
      return { transcript: client.transcript, ended: client.ended };
    });
    expect(state).toEqual({
      transcript: [{ role: 'user', text: 'Check order 42', final: true }],
      ended: false,
    });
    // No audio ever went up.
    expect(side.frames).toEqual([]);
    await page.evaluate(() => (globalThis as unknown as Page$).textClient.end());
    expect(await side.closed).toBe(1000);
    await page.close();
  });

  it('the demo page: key, agent, Talk, live transcript, End, by keyboard, within its Content-Security-Policy', async () => {
    const page = await launched.browser.newPage();
    pages.push(page);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/demo/voice`);
    await page.getByLabel('API key').fill('rg_live_demo');
    await page.getByLabel('API key').press('Enter');
    await page.waitForFunction(
      () =>
        !(
          globalThis as unknown as { document: { getElementById(id: string): { disabled: boolean } } }
        ).document.getElementById('talk').disabled,
    );
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect(await page.getByLabel('Agent').locator('option').allTextContents()).toEqual(['Support (agent-1)']);

    const before = sessions.length;
    await page.getByRole('button', { name: 'Talk' }).focus();
    await page.keyboard.press('Enter');
    const side = await waitFor('the demo session socket', () => sessions[before]);
    const create = demoApiCalls.find((c) => c.method === 'POST');
    expect(create?.auth).toBe('Bearer rg_live_demo');
    expect(JSON.parse(create!.body)).toEqual({ agent_id: 'agent-1', allowed_origins: [base] });

    side.socket.send(JSON.stringify({ type: 'transcript', role: 'agent', text: 'Hi there.', final: true }));
    side.socket.send(JSON.stringify({ type: 'transcript', role: 'user', text: 'Hello', final: false }));
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelectorAll(s: string): unknown[] } }
        ).document.querySelectorAll('#transcript li').length === 2,
    );
    expect(await page.locator('#transcript li').allTextContents()).toEqual([
      'Agent: Hi there.',
      'You: Hello',
    ]);

    await page.keyboard.press('Enter'); // focus moved to End once connected
    await waitFor('end', () => side.texts.find((t) => t.message.type === 'end'));
    await page.getByText('Session ended (user).').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
