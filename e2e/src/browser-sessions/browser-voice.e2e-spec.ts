// A browser voice session end to end, as a partner's web page would run it: the partner's server creates the
// session through the gateway, a page on the partner's origin loads the platform's client module from the
// gateway (/sdk/voice-client.js) and talks to the agent through the voice app, in Debian's Chromium with a fake
// microphone playing what the platform's offline synthesizer says (the offline STT reads it; a real person needs
// a real STT provider). Media time runs at wall speed here: a browser plays audio in real time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { closeOfflineSpeech, decodePcm16WavTracks, rms, warmOfflineSpeech } from '@vap/media';
import { waitFor } from '@vap/testing';
import {
  clientProbeScript,
  launchBrowser,
  writeSpokenWav,
  type LaunchedBrowser,
  type SpokenWav,
} from '../../support/browser';
import { DeepgramSpeakFake, ElevenLabsFake } from '@vap/speech/testing';
import { VoiceWorld } from '../voice/voice-fixtures';
import { LONG_REPLY, voiceScript } from '../voice/voice-script';

const INTRO = 'Hello, this is Maya from Acme.';
const SAID = 'Tell me everything about your plans.';

/** The partner's page: the client from the gateway, with the probes the test reads. */
function pageHtml(gateway: string): string {
  return `<!doctype html><meta charset="utf-8"><title>talk to Maya</title>
<script type="module">${clientProbeScript(`${gateway}/sdk/voice-client.js`)}</script>`;
}

type PageEvent = { name: string; event: Record<string, unknown> };

/** The partner's own keys for the speech providers of the provider case (each fake accepts only its own). */
const ELEVENLABS_KEY = 'el-browser-partner-key-0001';
const DEEPGRAM_KEY = 'dg-browser-partner-key-0001';

describe('browser voice sessions in a real browser', () => {
  let world: VoiceWorld;
  let elevenlabs: ElevenLabsFake;
  let deepgram: DeepgramSpeakFake;
  let browser: LaunchedBrowser;
  let mic: SpokenWav;
  let pageServer: Server;
  let origin: string;

  beforeAll(async () => {
    elevenlabs = await ElevenLabsFake.start({ apiKey: ELEVENLABS_KEY });
    deepgram = await DeepgramSpeakFake.start({ apiKey: DEEPGRAM_KEY });
    world = await VoiceWorld.start({
      name: 'browser_voice',
      providers: { llm: true },
      // ElevenLabs voices are premium voices of the catalog.
      voiceTier: 'premium',
      env: {
        MEDIA_TIME_SCALE: '1',
        BROWSER_SESSION_TOKEN_TTL_MS: '8000',
        SPEECH_ELEVENLABS_BASE_URL: elevenlabs.baseUrl,
        SPEECH_DEEPGRAM_BASE_URL: deepgram.baseUrl,
      },
    });
    world.ai.script(voiceScript);
    // Looped: 6 s of silence (the intro is synthesized and plays: a caller's line over a late intro would cut it),
    // the caller's line, 1 s of silence; the next time round the line comes over the agent's long answer.
    mic = await writeSpokenWav(SAID, 1000, 6000);
    // The provider fakes speak with the offline engine in this process: started now, not inside the first intro.
    await warmOfflineSpeech();
    browser = await launchBrowser({ micWav: mic.path });
    pageServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pageHtml(world.gateway));
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    mic?.remove();
    await new Promise((resolve) => pageServer?.close(resolve));
    await world?.stop();
    await elevenlabs?.close();
    await deepgram?.close();
    await closeOfflineSpeech();
  });

  async function createSession(agentId: string, allowedOrigins = [origin]) {
    const res = await world.api('/browser-sessions', {
      method: 'POST',
      body: { agent_id: agentId, allowed_origins: allowedOrigins, variables: { name: 'Asha' } },
    });
    expect(res.status).toBe(200);
    return res.body.data as { id: string; access_token: string; connect_url: string; status: string };
  }

  /**
   * Opens a WebSocket the way a browser on `fromOrigin` would, and says how it went: the session started (the
   * socket is then closed), the platform refused it (closed at once with a code and the cause), or the upgrade
   * was answered with an HTTP status.
   */
  function tryConnect(
    url: string,
    fromOrigin: string,
  ): Promise<{ started: true } | { refused: { code: number; reason: string } } | { status: number }> {
    return new Promise((resolve) => {
      const ws = new WebSocket(url, { origin: fromOrigin });
      ws.on('message', (data, isBinary) => {
        if (isBinary || (JSON.parse(String(data)) as { type: string }).type !== 'session.started') return;
        ws.removeAllListeners('close');
        ws.close();
        resolve({ started: true });
      });
      ws.on('close', (code, reason) => resolve({ refused: { code, reason: reason.toString() } }));
      ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
      ws.on('error', () => undefined);
    });
  }

  const eventsOf = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { events: PageEvent[] }).events);

  /**
   * Waits for the intro in the page's transcript, as the person heard it: whole, or up to where the microphone's
   * line came over it (on a loaded machine the session may start late in the microphone's loop). On a timeout,
   * says what the page showed instead (and what `more` adds: what a provider fake was asked).
   */
  async function introShown(
    page: Page,
    description: string,
    more: () => unknown = () => ({}),
  ): Promise<void> {
    await waitFor(
      async () =>
        (await eventsOf(page)).some(
          (e) =>
            e.name === 'transcript' &&
            e.event.role === 'agent' &&
            e.event.final &&
            typeof e.event.text === 'string' &&
            /\w/.test(e.event.text) &&
            INTRO.startsWith(e.event.text),
        ) || undefined,
      { timeoutMs: 60_000, description },
    ).catch(async (error: Error) => {
      const shown = (await eventsOf(page)).filter((e) => e.name !== 'level');
      throw new Error(
        `${error.message}\npage: ${JSON.stringify(shown).slice(0, 4000)}\nmore: ${JSON.stringify(more()).slice(0, 4000)}`,
      );
    });
  }

  it('talks: intro heard, the caller transcribed and answered, barge-in clears, ended from the page, billed and recorded', async () => {
    const agent = await world.agent({ intro_message: INTRO });
    // The page is loaded first: the session's connect_url lives BROWSER_SESSION_TOKEN_TTL_MS (8 s here).
    const page = await browser.browser.newPage();
    await page.goto(origin);
    await page.waitForFunction(() => (globalThis as unknown as { ready?: boolean }).ready === true);
    const session = await createSession(agent.id);
    expect(session.status).toBe('pending');
    await page.evaluate(
      (url) =>
        (globalThis as unknown as { start(u: string, audio: unknown): Promise<void> }).start(url, {
          noiseSuppression: false,
          echoCancellation: false,
        }),
      session.connect_url,
    );

    // The intro is heard (energy on the page's output) and shown.
    await page.waitForFunction(() => (globalThis as unknown as { peak: number }).peak > 0.02, undefined, {
      timeout: 20_000,
    });
    const transcriptOf = async (role: string) =>
      (await eventsOf(page)).filter((e) => e.name === 'transcript' && e.event.role === role && e.event.final);
    await introShown(page, 'the intro in the page transcript');
    // The page is told what hears its user: here the offline development recogniser, with why a person would go
    // unheard and what to do about it.
    const speech = (await eventsOf(page)).find((e) => e.name === 'speech');
    expect(speech?.event).toMatchObject({ stt: 'offline', tts: 'offline' });
    expect(String(speech?.event.warning)).toMatch(/offline development recogniser.*transcriber/);
    // The caller's line, then the agent's answer.
    // The fake microphone says it every 9 s or so; a loaded machine may garble one pass.
    await waitFor(async () => (await transcriptOf('user')).some((e) => e.event.text === SAID) || undefined, {
      timeoutMs: 60_000,
      description: "the caller's line in the page transcript",
    });
    await waitFor(
      async () =>
        (await transcriptOf('agent')).some(
          (e) => LONG_REPLY.join(' ').startsWith(String(e.event.text)) && e.event.text !== '',
        ) || undefined,
      { timeoutMs: 40_000, description: "the agent's answer in the page transcript" },
    );
    // The looped line comes again over the long answer: playback is cleared in the page.
    await page.waitForFunction(
      () => (globalThis as unknown as { clears: number[] }).clears.length > 0,
      undefined,
      {
        timeout: 40_000,
      },
    );
    const clears = await page.evaluate(() => (globalThis as unknown as { clears: number[] }).clears);
    expect(clears[0]).toBeLessThan(250);

    // Ended from the page.
    await page.evaluate(() => (globalThis as unknown as { client: { end(): void } }).client.end());
    await waitFor(async () => (await eventsOf(page)).find((e) => e.name === 'ended'), {
      timeoutMs: 10_000,
      description: 'the ended event',
    });
    const done = await waitFor(
      async () => {
        const res = await world.api(`/browser-sessions/${session.id}`);
        return res.body.data?.status === 'completed' && res.body.data.session?.recording_url
          ? res.body.data
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the session to complete' },
    );
    expect(done.session.transcript.map((e: { role: string }) => e.role)).toEqual(
      expect.arrayContaining(['bot', 'user']),
    );
    await page.close();

    // session.completed, as a browser session (this one: other cases of the file complete theirs too); never
    // call.status.updated.
    const sessionUuid = session.id.replace(/^[a-z]+_/, '');
    const completed = await waitFor(
      () =>
        world.tap.events.find(
          (e) =>
            e.subject === 'events.session.completed' &&
            e.data.source === 'browser' &&
            JSON.stringify(e.data).includes(sessionUuid),
        ),
      { timeoutMs: 15_000, description: 'session.completed' },
    );
    expect(completed.data.source).toBe('browser');
    expect(
      world.tap.events.filter(
        (e) => e.subject === 'events.call.status_updated' && JSON.stringify(e.data).includes(sessionUuid),
      ),
    ).toEqual([]);

    // The recording has both legs.
    const wav = await fetch(done.session.recording_url);
    expect(wav.status).toBe(200);
    const tracks = decodePcm16WavTracks(new Uint8Array(await wav.arrayBuffer()));
    expect(tracks.channels).toBe(2);
    for (const leg of tracks.samples) expect(rms(leg)).toBeGreaterThan(100);
  }, 180_000);

  it('hears and speaks on the partner’s own providers: a Deepgram transcriber and an ElevenLabs voice', async () => {
    for (const [provider, apiKey] of [
      ['elevenlabs', ELEVENLABS_KEY],
      ['deepgram', DEEPGRAM_KEY],
    ]) {
      const stored = await world.api('/provider-credentials', { body: { provider, api_key: apiKey } });
      // 409: a retried run of this case stored it already (one key per provider).
      expect([200, 409]).toContain(stored.status);
      const listed = (await world.api('/provider-credentials')).body.data.provider_credentials as {
        provider: string;
        key_last4: string;
      }[];
      expect(listed.find((c) => c.provider === provider)?.key_last4).toBe(`…${apiKey.slice(-4)}`);
    }
    const catalog = (await world.api('/voice-configurations')).body.data.voice_configurations as {
      id: string;
      provider: string;
      provider_voice_id: string;
      availability: string;
    }[];
    const voice = catalog.find((v) => v.provider === 'elevenlabs' && v.availability === 'account_key')!;
    const agent = await world.agent({
      intro_message: INTRO,
      voice_id: voice.id.replace(/^vc_/, ''),
      transcriber: { provider: 'deepgram' },
    });
    const page = await browser.browser.newPage();
    await page.goto(origin);
    await page.waitForFunction(() => (globalThis as unknown as { ready?: boolean }).ready === true);
    const session = await createSession(agent.id);
    await page.evaluate(
      (url) =>
        (globalThis as unknown as { start(u: string, audio: unknown): Promise<void> }).start(url, {
          noiseSuppression: false,
          echoCancellation: false,
        }),
      session.connect_url,
    );
    // The page is told who hears and speaks: the partner's providers, nothing to warn about.
    const speech = await waitFor(async () => (await eventsOf(page)).find((e) => e.name === 'speech'), {
      timeoutMs: 20_000,
      description: 'the speech event',
    });
    expect(speech.event).toEqual({ stt: 'deepgram', tts: 'elevenlabs' });
    const transcriptOf = async (role: string) =>
      (await eventsOf(page)).filter((e) => e.name === 'transcript' && e.event.role === role && e.event.final);
    await introShown(page, 'the intro, spoken by ElevenLabs, in the page transcript', () => ({
      upgrades: elevenlabs.upgrades,
      streams: elevenlabs.streams.map(({ texts, spoken, chunksSent, closed }) => ({
        texts,
        spoken,
        chunksSent,
        closed,
      })),
    }));
    // The fake microphone's line, heard by Deepgram from the browser's audio.
    await waitFor(async () => (await transcriptOf('user')).some((e) => e.event.text === SAID) || undefined, {
      // The fake microphone says it every 9 s or so; a loaded machine may garble one pass.
      timeoutMs: 60_000,
      description: "the caller's line, heard by Deepgram, in the page transcript",
    }).catch(async (error: Error) => {
      // What Deepgram was sent and answered, and what the page showed, say which leg lost the line.
      const listens = deepgram.listens.map((l) => ({
        audioBytes: l.audioBytes,
        closed: l.closed,
        controls: l.controls.map((c) => c.type),
        sent: l.sent.map((m) =>
          JSON.stringify((m.channel as { alternatives?: unknown[] })?.alternatives?.[0] ?? m.type),
        ),
      }));
      const shown = (await eventsOf(page)).filter((e) => e.name !== 'level');
      throw new Error(
        `${error.message}\ndeepgram: ${JSON.stringify(listens)}\npage: ${JSON.stringify(shown).slice(0, 4000)}`,
      );
    });
    await waitFor(
      async () =>
        (await transcriptOf('agent')).some((e) => e.event.text && !INTRO.startsWith(String(e.event.text))) ||
        undefined,
      { timeoutMs: 40_000, description: "the agent's answer, spoken by ElevenLabs, in the page transcript" },
    );
    await page.evaluate(() => (globalThis as unknown as { client: { end(): void } }).client.end());
    await waitFor(async () => (await eventsOf(page)).find((e) => e.name === 'ended'), {
      timeoutMs: 10_000,
      description: 'the ended event',
    });
    await page.close();

    // The providers were asked with the partner's keys, for the catalog's voice.
    expect(
      elevenlabs.streams.some(
        (s) =>
          s.apiKey === ELEVENLABS_KEY &&
          s.voiceId === voice.provider_voice_id &&
          s.texts.join('').includes('Maya'),
      ),
    ).toBe(true);
    expect(deepgram.listens.some((s) => s.authorization === `Token ${DEEPGRAM_KEY}`)).toBe(true);
    const done = await waitFor(
      async () => {
        const res = await world.api(`/browser-sessions/${session.id}`);
        return res.body.data?.status === 'completed' ? res.body.data : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the session to complete' },
    );
    const answered = (done.session.transcript as { role: string; providers?: unknown }[]).find(
      (e) => e.role === 'bot' && e.providers,
    );
    expect(answered?.providers).toMatchObject({ stt: 'deepgram', tts: 'elevenlabs' });
  }, 150_000);

  it('refuses another origin, a reused token and an expired token, each closed with its cause and recorded', async () => {
    const agent = await world.agent({ intro_message: INTRO });

    const wrongOrigin = await createSession(agent.id);
    expect(await tryConnect(wrongOrigin.connect_url, 'https://evil.example')).toEqual({
      refused: { code: 4403, reason: 'origin_not_allowed' },
    });
    // The refusal spent nothing: the right page can still connect, once.
    expect(await tryConnect(wrongOrigin.connect_url, origin)).toEqual({ started: true });
    // Again: the token was used (or, once the first connection's end was reported, the session is over).
    const again = await tryConnect(wrongOrigin.connect_url, origin);
    expect([
      { refused: { code: 4401, reason: 'token_used' } },
      { refused: { code: 4410, reason: 'session_ended' } },
    ]).toContainEqual(again);
    const used = await world.api(`/browser-sessions/${wrongOrigin.id}`);
    expect(used.body.data.last_refusal.reason).toBe('refused' in again ? again.refused.reason : 'none');

    const expiring = await createSession(agent.id);
    await new Promise((resolve) => setTimeout(resolve, 9000));
    expect(await tryConnect(expiring.connect_url, origin)).toEqual({
      refused: { code: 4401, reason: 'token_expired' },
    });
    const lapsed = await world.api(`/browser-sessions/${expiring.id}`);
    expect(lapsed.body.data.last_refusal).toMatchObject({ reason: 'token_expired', origin });
    const expired = await waitFor(
      async () => {
        const res = await world.api(`/browser-sessions/${expiring.id}`);
        return res.body.data?.status === 'expired' ? res.body.data : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'the pending session to expire' },
    );
    expect(expired.status).toBe('expired');
  }, 90_000);
});
