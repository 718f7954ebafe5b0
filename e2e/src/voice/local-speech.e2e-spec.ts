// Local speech heard and answered end to end, with no provider key: a deployment whose speech is local
// (STT_PROVIDER=local, TTS_PROVIDER=local: PocketSphinx and eSpeak NG on the voice replica) and whose model is
// the offline engine. The person is speech the platform did not make: eSpeak NG in another voice, rate and pitch
// than the agent's, with no text signal under it, so only a real recogniser hears it. On a carrier call, and in
// a real browser on a page holding only the one-tag widget and in the console's Talk panel, the person asks where
// their order is; the agent calls the partner's lookup_order function and says what it answered, in a voice
// PocketSphinx reads back as words. PocketSphinx mishears eSpeak NG ("where is" comes out as "william" or "we
// leave"), so the tests hold it to the words it hears every time: "order" and, on the call, the digits.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePcm16Wav, resamplePcm16 } from '@vap/media';
import { LocalSttProvider, WavStreamReader } from '@vap/speech';
import { LOCAL_VOICE_LANGUAGES } from '@vap/speech/testing';
import { waitFor } from '@vap/testing';
import { launchBrowser, seriousA11yViolations, type LaunchedBrowser } from '../../support/browser';
import { signInNewOwner } from '../console/console-fixtures';
import { FunctionServer, startFunctionServer } from '../agents/function-server';
import { botLines, userLines, VoiceWorld } from './voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The catalog's Prabhat (Azure, en-IN, male): with no Azure key, eSpeak NG's en-us+m5 stands in for it. */
const PRABHAT_VOICE = 'e3151288-62c3-4a4f-b774-eb5248db40af';
/** The person: another eSpeak NG voice than the agent's, slower and lower. */
const PERSON_VOICE = ['-v', 'en-us+m7', '-s', '140', '-p', '35'];
/** What the person says (PocketSphinx reads it as "william my order one two three four five"). */
const ASK = 'Where is my order one two three four five?';
const INTRO = 'Hello, how can I help you today?';
/** The partner's answer, which the offline engine speaks as "Done. status on its way." */
const ORDER = { status: 'on its way' };
const ANSWER = 'Done. status on its way.';

const LOOKUP_ORDER = {
  name: 'lookup_order',
  description: 'Look up an order by its number',
  parameters: {
    type: 'object',
    properties: { order_number: { type: 'string', description: 'The order number' } },
    required: ['order_number'],
    additionalProperties: false,
  },
};

/** eSpeak NG saying `text` in the person's voice: PCM16 mono and its rate. */
function personSays(text: string): { pcm: Int16Array; sampleRate: number } {
  const wav = execFileSync('espeak-ng', ['--stdout', '--stdin', ...PERSON_VOICE], { input: text });
  const reader = new WavStreamReader();
  const data = reader.push(wav);
  const pcm = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + (data.length & ~1)));
  return { pcm, sampleRate: reader.format!.sampleRate };
}

/** The page of the partner's site: the one tag and nothing else of the platform's. */
function pageHtml(tag: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme</title></head><body>
${tag}
</body></html>`;
}

describe('local speech hears a person and answers, with no provider key', () => {
  let world: VoiceWorld;
  let server: FunctionServer;
  /** The recogniser the test reads the agent's audio back with: the same local speech, outside the platform. */
  let stt: LocalSttProvider;
  let agent: Any;
  const path = '/orders/lookup';

  beforeAll(async () => {
    server = await startFunctionServer();
    server.answer(path, { status: 200, body: JSON.stringify(ORDER) });
    world = await VoiceWorld.start({
      name: 'local_speech_heard',
      // No LLM_BASE_URL: the offline engine thinks.
      providers: {},
      env: {
        STT_PROVIDER: 'local',
        TTS_PROVIDER: 'local',
        SPEECH_STAND_IN: 'local',
        // A browser and a person speak in real time.
        MEDIA_TIME_SCALE: '1',
        // The partner's fake server listens on loopback with a certificate of the run's test CA.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '',
      },
    });
    stt = new LocalSttProvider({ pythonPath: '/usr/bin/python3', timeoutMs: 20_000, sttWorkers: 1 });
    const fn = await world.api('/custom-functions', {
      body: { ...LOOKUP_ORDER, url: `${server.url}${path}` },
    });
    expect(fn.status).toBe(200);
    agent = await world.agent({
      agent_name: 'Local Maya',
      voice_id: PRABHAT_VOICE,
      intro_message: INTRO,
      prompt: 'You are Maya from Acme. You look up orders.',
    });
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);
  }, 240_000);

  afterAll(async () => {
    await stt?.close();
    await world?.stop();
    await server?.close();
  });

  /** What the local recogniser hears in `pcm` (8 kHz). */
  async function hear(pcm: Int16Array): Promise<string> {
    const session = await stt.open({ languages: ['en'] });
    session.push(pcm);
    return session.finish();
  }

  it('says in /health/ready that local speech runs on the replica', async () => {
    const res = await fetch(`${world.own.platform.services.voice!.url}/health/ready`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { details: Record<string, unknown> };
    expect(body.details.local_speech).toEqual({ status: 'up', engine: 'espeak-ng, pocketsphinx' });
  });

  it('offers local voices that need no key, and a Hindi one previews as eSpeak NG speech in Hindi', async () => {
    const list = await world.api('/voice-configurations');
    const local = (list.body.data.voice_configurations as Any[]).filter((v) => v.provider === 'local');
    expect(local.length).toBeGreaterThanOrEqual(24);
    expect(local.every((v) => v.availability === 'offline')).toBe(true);
    expect(new Set(local.map((v) => v.language))).toEqual(new Set(LOCAL_VOICE_LANGUAGES));
    const hindi = local.find((v) => v.language === 'hi-IN' && v.gender === 'female');
    const res = await fetch(`${world.gateway}/api/v2/voice-configurations/${hindi.id}/preview`, {
      headers: { authorization: `Bearer ${world.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await res.arrayBuffer());
    // A second of speech at least.
    expect(wav.length).toBeGreaterThan(44 + 2 * 8000);
    // An agent may take it: a local voice needs no key.
    const created = await world.agent({ voice_id: hindi.id.replace(/^vc_/, ''), spoken_languages: ['hi'] });
    expect(created.voice_id).toBe(hindi.id.replace(/^vc_/, ''));
  });

  it('a carrier call: the person is heard, the agent looks the order up and says the answer in speech', async () => {
    const before = server.requests.length;
    const call = await world.dial('carrier_b', agent.id, { timeScale: 1 });
    // The intro, spoken by eSpeak NG standing in for the agent's Azure voice.
    await waitFor(() => call.media.playedAgentAudio.length > 25 || undefined, {
      timeoutMs: 30_000,
      description: 'the intro to play',
    });
    await call.media.waitUntilAgentSilent(800, 30_000);
    const introFrames = call.media.playedAgentAudio.length;

    const { pcm, sampleRate } = personSays(ASK);
    await call.media.play(resamplePcm16(pcm, sampleRate, 8000));
    const entries = await world.transcript(
      call.callId,
      (lines) => botLines(lines).some((l: Any) => l.content === ANSWER),
      60_000,
    );
    await call.media.waitUntilAgentSilent(800, 30_000);

    // The person's words as PocketSphinx heard them, then the answer after them.
    const heard = userLines(entries)[0];
    expect(heard.content).toMatch(/\border\b/i);
    expect(heard.content).toMatch(/one two three four five/i);
    expect(entries.indexOf(heard)).toBeLessThan(entries.findIndex((l: Any) => l.content === ANSWER));
    expect(botLines(entries)[0].content).toBe(INTRO);
    // Local speech on both sides, and the transcript names it.
    expect(entries.find((l: Any) => l.content === ANSWER).providers).toMatchObject({
      stt: 'local',
      tts: 'local',
    });

    // It acted on what was said: the partner's function was called during the call.
    const requests = server.requests.slice(before).filter((r) => r.url === path);
    expect(requests).toHaveLength(1);
    // The number said digit by digit reaches the function as its digits.
    expect(JSON.parse(requests[0].rawBody)).toMatchObject({
      function: { name: 'lookup_order' },
      arguments: { order_number: '12345' },
      call: { id: call.callId, agent_id: agent.id },
    });

    // What reached the carrier is speech, not the offline engine's signal: no text signal decodes from it, and
    // the recogniser reads the answer's words back from the audio that played after the person spoke.
    expect(call.media.heard).toEqual([]);
    const answerAudio = call.media.playedAgentAudio.slice(introFrames);
    const out = new Int16Array(answerAudio.reduce((n, f) => n + f.length, 0));
    answerAudio.reduce((at, f) => (out.set(f, at), at + f.length), 0);
    expect(await hear(out)).toMatch(/\bway\b/);

    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const done = await world.finished(call.callId);
    // Nobody's key spoke or heard: no platform speech provider is billed.
    expect(done.platform_speech_providers).toEqual([]);
    expect(done.session.tool_calls).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'lookup_order' })]),
    );
  }, 180_000);

  describe('in a real browser', () => {
    let browser: LaunchedBrowser;
    let pageServer: Server;
    let origin: string;
    let html = '';
    let micDir: string;

    beforeAll(async () => {
      // Looped by Chromium: 8 s of silence (the intro is synthesized and plays: the person's line over a late intro
      // would cut it), the person's line, 2 s of silence.
      const { pcm, sampleRate } = personSays(ASK);
      const samples = new Int16Array(sampleRate * 10 + pcm.length);
      samples.set(pcm, sampleRate * 8);
      micDir = mkdtempSync(join(tmpdir(), 'vap-mic-'));
      writeFileSync(join(micDir, 'mic.wav'), encodePcm16Wav(samples, sampleRate));
      browser = await launchBrowser({ micWav: join(micDir, 'mic.wav') });
      pageServer = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html);
      });
      await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => pageServer?.close(resolve));
      if (micDir) rmSync(micDir, { recursive: true, force: true });
    });

    it('a page with only the one-tag widget: the person is heard and the answer shows', async () => {
      const key = await world.api('/publishable-keys', {
        method: 'POST',
        body: { name: 'Acme site', agent_ids: [agent.id], allowed_origins: [origin] },
      });
      expect(key.status).toBe(200);
      // The attributes keep Chromium from suppressing the synthetic voice.
      html = pageHtml(
        `<script src="${world.gateway}/sdk/widget.js" data-agent-id="${agent.id}" data-public-key="${key.body.data.public_key}" data-noise-suppression="false" data-echo-cancellation="false"></script>`,
      );
      const before = server.requests.length;
      const page = await browser.browser.newPage();
      page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
      await page.goto(origin);
      await page.getByRole('button', { name: 'Talk to us' }).click();
      await page.getByRole('button', { name: 'End conversation' }).waitFor({ timeout: 20_000 });
      const lines = (role: string) =>
        page.locator(`.vap-widget-transcript li[data-role="${role}"][data-final="true"]`).allTextContents();
      // The intro as the person heard it: whole, or up to where the microphone's line came over it (on a loaded
      // machine the session may start late in the microphone's loop).
      const heardIntro = (line: string) =>
        /\w/.test(line.slice('Agent: '.length)) && `Agent: ${INTRO}`.startsWith(line);
      await waitFor(async () => (await lines('agent')).some(heardIntro) || undefined, {
        timeoutMs: 60_000,
        description: 'the intro in the widget transcript',
      });
      // The microphone says it every 10 s or so.
      const said = await waitFor(async () => (await lines('user')).find((l) => /\border\b/i.test(l)), {
        timeoutMs: 60_000,
        description: "the person's line in the widget transcript",
      });
      expect(said).toMatch(/^You: /);
      await waitFor(async () => (await lines('agent')).includes(`Agent: ${ANSWER}`) || undefined, {
        timeoutMs: 40_000,
        description: "the agent's answer in the widget transcript",
      });
      expect(server.requests.slice(before).filter((r) => r.url === path).length).toBeGreaterThanOrEqual(1);

      await page.getByRole('button', { name: 'End conversation' }).click();
      await page.getByRole('button', { name: 'Talk to us' }).waitFor({ timeout: 10_000 });
      await page.close();
    }, 180_000);

    it("the console's Talk panel: no warning that the agent cannot understand, the person heard and answered", async () => {
      const before = server.requests.length;
      const page = await signInNewOwner(browser.browser, world.gateway);
      await page.goto(`${world.gateway}/console/agents/${agent.id}`);
      await page.getByRole('heading', { name: 'Local Maya' }).waitFor();
      await page.getByRole('button', { name: 'Talk', exact: true }).click();
      const conversation = page.getByRole('list', { name: 'Conversation with Local Maya' });
      await conversation.locator('li.bot', { hasText: INTRO }).waitFor({ timeout: 60_000 });
      const said = conversation
        .locator('li.user', { hasText: /\border\b/i })
        .filter({ hasNotText: 'hearing…' });
      await said.first().waitFor({ timeout: 60_000 });
      await conversation.locator('li.bot', { hasText: ANSWER }).first().waitFor({ timeout: 40_000 });
      // This agent hears with local speech: the panel never said it would not understand.
      expect(
        await page.getByRole('alert').filter({ hasText: 'This agent will not understand you' }).count(),
      ).toBe(0);
      expect(server.requests.slice(before).filter((r) => r.url === path).length).toBeGreaterThanOrEqual(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'End', exact: true }).click();
      await page.context().close();
    }, 180_000);
  });
});
