// The media-speaking fakes checked on their own, against small servers written here from the carriers' and
// providers' documented protocols (no platform involved): if a voice e2e test fails, this says whether the fake
// or the platform is wrong.
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import {
  carrierAStreamMarkup,
  carrierBStreamMarkup,
  encodePcm16Wav,
  mulawDecode,
  mulawEncode,
  parseCarrierAMessage,
  parseCarrierBMessage,
  pcm16FromBuffer,
  Resampler,
  TextSignalDecoder,
  dtmfTones,
} from '@vap/media';
import { waitFor } from '@vap/testing';
import { signCarrierA, signCarrierB } from '@vap/carrier-sim';
import { CarrierAccount, FakeCarriers, startFakeCarriers } from '../../support/fake-carriers';
import {
  activeFraction,
  CarrierAMediaClient,
  dialedNumber,
  CarrierBMediaClient,
  FakeAi,
  MediaStreamRefused,
  OPENAI_PCM_SAMPLE_RATE,
  spokenAudio,
  startFakeAi,
  streamInstructionOf,
  textsIn,
} from '../../support/fake-media';

const A: CarrierAccount = {
  provider: 'carrier_a',
  id: 'MAFAKESELFTEST000001',
  token: 'fake-a-token-selftest',
};
const B: CarrierAccount = {
  provider: 'carrier_b',
  id: 'ACfakeselftest0000000000000000000b',
  token: 'fake-b-token-selftest',
};
const TIME_SCALE = 5;

/** A media endpoint like the platform's: checks the upgrade's carrier signature, records frames both ways. */
interface MiniMediaServer {
  url: string;
  upgrades: { url: string; headers: IncomingMessage['headers']; accepted: boolean }[];
  sockets: WebSocket[];
  frames: Record<string, unknown>[];
  /** Text decoded from the callee's media frames. */
  calleeSaid: string[];
  close(): Promise<void>;
}

async function startMiniMediaServer(account: CarrierAccount): Promise<MiniMediaServer> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const state: Omit<MiniMediaServer, 'url' | 'close'> = {
    upgrades: [],
    sockets: [],
    frames: [],
    calleeSaid: [],
  };
  let base = '';
  server.on('upgrade', (req, socket, head) => {
    const url = `${base}${req.url}`;
    let ok: boolean;
    if (account.provider === 'carrier_b') {
      ok = req.headers['x-twilio-signature'] === signCarrierB(account.token, url, {});
    } else {
      const nonce = String(req.headers['x-plivo-signature-v3-nonce'] ?? '');
      ok = req.headers['x-plivo-signature-v3'] === signCarrierA(account.token, url, {}, nonce);
    }
    state.upgrades.push({ url, headers: req.headers, accepted: ok });
    if (!ok)
      return void socket.end(
        'HTTP/1.1 403 Forbidden\r\ncontent-length: 9\r\nconnection: close\r\n\r\nforbidden',
      );
    wss.handleUpgrade(req, socket, head, (ws) => {
      state.sockets.push(ws);
      const decoder = new TextSignalDecoder(8000);
      ws.on('message', (data) => {
        const text = data.toString();
        const parsed =
          account.provider === 'carrier_b' ? parseCarrierBMessage(text) : parseCarrierAMessage(text);
        if (!parsed.ok) throw new Error(`the fake sent a frame the platform's parser refuses: ${text}`);
        state.frames.push(JSON.parse(text) as Record<string, unknown>);
        if (parsed.message.event === 'media') {
          const pcm = mulawDecode(Buffer.from(parsed.message.media.payload, 'base64'));
          state.calleeSaid.push(...decoder.push(pcm));
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    ...state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        server.close(() => resolve());
      }),
  };
}

const agentFrame = {
  carrier_b: (streamSid: string, mulaw: Buffer) => ({
    event: 'media',
    streamSid,
    media: { payload: mulaw.toString('base64') },
  }),
  carrier_a: (_streamId: string, mulaw: Buffer) => ({
    event: 'playAudio',
    media: { contentType: 'audio/x-mulaw', sampleRate: 8000, payload: mulaw.toString('base64') },
  }),
};

describe('media-speaking fakes', () => {
  describe('stream markup', () => {
    it('reads carrier_b <Connect><Stream> with its parameters and carrier_a <Stream> with its URL text', () => {
      const url = 'wss://media.example/media/carrier_b/abc?token=x.y&z=1';
      const b = streamInstructionOf(
        'carrier_b',
        `<?xml version="1.0"?><Response>${carrierBStreamMarkup(url, { callId: 'abc' })}</Response>`,
      );
      expect(b).toEqual({ protocol: 'carrier_b', url, parameters: { callId: 'abc' }, attributes: { url } });
      const a = streamInstructionOf('carrier_a', `<Response>${carrierAStreamMarkup(url)}</Response>`);
      expect(a).toMatchObject({
        url,
        attributes: { bidirectional: 'true', keepCallAlive: 'true', contentType: 'audio/x-mulaw;rate=8000' },
      });
      expect(streamInstructionOf('carrier_b', '<Response><Say>Hello</Say></Response>')).toBeNull();
      expect(
        streamInstructionOf('carrier_b', `<Response><Start><Stream url="${url}"/></Start></Response>`),
      ).toBeNull();
    });
  });

  describe.each(['carrier_b', 'carrier_a'] as const)('%s media client', (protocol) => {
    const account = protocol === 'carrier_b' ? B : A;
    let server: MiniMediaServer;
    let client: CarrierBMediaClient | CarrierAMediaClient;

    beforeEach(async () => {
      server = await startMiniMediaServer(account);
      const instruction = {
        protocol,
        url: `${server.url}/media/${protocol}/call-1?token=abc.def`,
        parameters: { callId: 'call-1' },
        attributes: {},
      };
      const options = { account, instruction, carrierCallId: 'CA-call-1', timeScale: TIME_SCALE };
      client = protocol === 'carrier_b' ? new CarrierBMediaClient(options) : new CarrierAMediaClient(options);
    });

    afterEach(async () => {
      client.drop();
      await server.close();
    });

    it('opens with the carrier signature, sends the start sequence and paced callee audio carrying its words', async () => {
      await client.open();
      expect(server.upgrades).toHaveLength(1);
      expect(server.upgrades[0].accepted).toBe(true);
      await client.say('I would like to book a table for two.');
      await waitFor(() => server.calleeSaid.includes('I would like to book a table for two.'), {
        timeoutMs: 5000,
        description: 'the mini server to decode the callee',
      });
      const events = server.frames.map((f) => f.event);
      expect(events.slice(0, protocol === 'carrier_b' ? 2 : 1)).toEqual(
        protocol === 'carrier_b' ? ['connected', 'start'] : ['start'],
      );
      const media = server.frames.filter((f) => f.event === 'media');
      // Continuous 20 ms frames of 160 mu-law bytes, numbered in order.
      expect(media.length).toBeGreaterThan(50);
      for (const [i, frame] of media.entries()) {
        const m = frame.media as { payload: string; chunk: string | number; timestamp: string };
        expect(Buffer.from(m.payload, 'base64')).toHaveLength(160);
        expect(Number(m.chunk)).toBe(i + 1);
        expect(Number(m.timestamp)).toBe(i * 20);
      }
    });

    it('plays the agent audio on the clock, decodes its words and echoes a mark once the audio before it played', async () => {
      await client.open();
      const ws = server.sockets[0];
      const speech = mulawEncode(spokenAudio('Hello, this is Maya from Acme.'));
      const sentAt = Date.now();
      for (let at = 0; at < speech.length; at += 160) {
        ws.send(JSON.stringify(agentFrame[protocol]('stream', speech.subarray(at, at + 160))));
      }
      ws.send(
        JSON.stringify(
          protocol === 'carrier_b'
            ? { event: 'mark', streamSid: 'stream', mark: { name: 'm1' } }
            : { event: 'checkpoint', streamId: 'stream', name: 'm1' },
        ),
      );
      const echoed = await waitFor(
        () => server.frames.find((f) => f.event === (protocol === 'carrier_b' ? 'mark' : 'playedStream')),
        { timeoutMs: 10_000, intervalMs: 5, description: 'the mark echo' },
      );
      const playMs = speech.length / 8 / TIME_SCALE;
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(playMs * 0.8);
      expect(protocol === 'carrier_b' ? (echoed.mark as { name: string }).name : echoed.name).toBe('m1');
      expect(client.heard.map((h) => h.text)).toEqual(['Hello, this is Maya from Acme.']);
      expect(activeFraction(client.agentAudio())).toBeGreaterThan(0.9);
    });

    it("presses keys as the carrier reports them, and hears the agent's in-band keys in what plays", async () => {
      await client.open();
      await client.press('4#', 100);
      const keys = server.frames.filter((f) => f.event === 'dtmf');
      expect(keys.map((f) => (f.dtmf as { digit: string }).digit)).toEqual(['4', '#']);
      expect(keys[0].dtmf).toMatchObject({ track: protocol === 'carrier_b' ? 'inbound_track' : 'inbound' });
      const ws = server.sockets[0];
      const tones = dtmfTones('29');
      for (let at = 0; at < tones.length; at += 160)
        ws.send(JSON.stringify(agentFrame[protocol]('stream', tones.subarray(at, at + 160))));
      await client.waitForAgentKeys('29', 10_000);
      expect(client.agentKeys).toBe('29');
    });

    it('on clear drops the queued audio: the rest is never heard, marks come back (carrier_a: clearedAudio)', async () => {
      await client.open();
      const ws = server.sockets[0];
      const speech = mulawEncode(
        spokenAudio('This sentence is long enough to be cut off by the caller speaking.'),
      );
      ws.send(JSON.stringify(agentFrame[protocol]('stream', speech)));
      ws.send(
        JSON.stringify(
          protocol === 'carrier_b'
            ? { event: 'mark', streamSid: 'stream', mark: { name: 'after-sentence' } }
            : { event: 'checkpoint', streamId: 'stream', name: 'after-sentence' },
        ),
      );
      await client.pause(300);
      ws.send(
        JSON.stringify(
          protocol === 'carrier_b'
            ? { event: 'clear', streamSid: 'stream' }
            : { event: 'clearAudio', streamId: 'stream' },
        ),
      );
      const ack = await waitFor(
        () => server.frames.find((f) => f.event === (protocol === 'carrier_b' ? 'mark' : 'clearedAudio')),
        { timeoutMs: 2000, intervalMs: 5, description: 'the clear acknowledgement' },
      );
      expect(ack).toBeDefined();
      expect(client.clears).toBe(1);
      await client.pause(200);
      const playedMs = client.playedAgentAudio.length * 20;
      expect(playedMs).toBeLessThan(speech.length / 8 / 2);
      expect(client.heard).toEqual([]);
      if (protocol === 'carrier_a') expect(server.frames.some((f) => f.event === 'playedStream')).toBe(false);
    });

    it('hangs up with the carrier’s stop (carrier_b) and closes the socket', async () => {
      await client.open();
      const closed = new Promise<number>((resolve) =>
        server.sockets[0].once('close', (code) => resolve(code)),
      );
      client.hangUp();
      expect(await closed).toBe(1000);
      const last = server.frames[server.frames.length - 1];
      if (protocol === 'carrier_b')
        expect(last).toMatchObject({ event: 'stop', stop: { callSid: 'CA-call-1' } });
      else expect(last.event).not.toBe('stop');
      expect((await client.waitForClose(2000)).code).toBe(1000);
    });

    it('reports a refused upgrade (wrong signature) as MediaStreamRefused with the status', async () => {
      const options = {
        account,
        instruction: { protocol, url: `${server.url}/media/x?token=t`, parameters: {}, attributes: {} },
        carrierCallId: 'CA-2',
        sign: 'bad' as const,
      };
      const bad =
        protocol === 'carrier_b' ? new CarrierBMediaClient(options) : new CarrierAMediaClient(options);
      const err = await bad.open().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MediaStreamRefused);
      expect((err as MediaStreamRefused).status).toBe(403);
    });
  });

  describe('fake AI providers', () => {
    let ai: FakeAi;
    beforeEach(async () => {
      ai = await startFakeAi();
    });
    afterEach(async () => {
      await ai.close();
    });

    async function transcribe(text: string, fields: Record<string, string> = {}): Promise<Response> {
      const pcm8k = spokenAudio(text);
      const resampler = new Resampler(8000, 16000);
      const pcm16k = Int16Array.from([...resampler.push(pcm8k), ...resampler.flush()]);
      const form = new FormData();
      form.set('file', new Blob([encodePcm16Wav(pcm16k, 16000)], { type: 'audio/wav' }), 'utterance.wav');
      form.set('model', 'fake-whisper-1');
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      return fetch(`${ai.url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ai.apiKey}` },
        body: form,
      });
    }

    it('transcribes the text carried by a WAV, records model and language, and fails on demand', async () => {
      const ok = await transcribe('Can I move my appointment to Friday?', { language: 'en' });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ text: 'Can I move my appointment to Friday?' });
      expect(ai.transcriptions[0]).toMatchObject({
        model: 'fake-whisper-1',
        language: 'en',
        sampleRate: 16000,
      });
      ai.fail('transcriptions', 'error', { after: 1, times: 1 });
      expect((await transcribe('One more.')).status).toBe(200);
      expect((await transcribe('This one fails.')).status).toBe(500);
      // Failed once, as told: healed by itself.
      expect((await transcribe('Working again.')).status).toBe(200);
      const unauthorized = await fetch(`${ai.url}/v1/audio/transcriptions`, { method: 'POST', body: 'x' });
      expect(unauthorized.status).toBe(401);
    });

    it('streams chat completion chunks with text and tool calls split over chunks', async () => {
      ai.script(() => ({
        text: 'Sure, one moment.',
        toolCalls: [{ name: 'transfer_call', arguments: { reason: 'asked for a human' } }],
      }));
      const res = await fetch(`${ai.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ai.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'fake-gpt',
          stream: true,
          messages: [{ role: 'user', content: 'A human please' }],
        }),
      });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const events = (await res.text())
        .split('\n\n')
        .filter(Boolean)
        .map((e) => e.replace(/^data: /, ''));
      expect(events[events.length - 1]).toBe('[DONE]');
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
      expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
      const text = chunks.map((c) => c.choices[0].delta.content ?? '').join('');
      const args = chunks
        .flatMap((c) => c.choices[0].delta.tool_calls ?? [])
        .map((t) => t.function?.arguments ?? '');
      expect(text).toBe('Sure, one moment.');
      expect(args.filter(Boolean).length).toBeGreaterThan(1);
      expect(JSON.parse(args.join(''))).toEqual({ reason: 'asked for a human' });
      expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe('tool_calls');
      expect(ai.chats[0]).toMatchObject({ model: 'fake-gpt', stream: true });
    });

    it('speaks 24 kHz PCM whose text layer decodes to the input', async () => {
      const res = await fetch(`${ai.url}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ai.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'fake-tts-1',
          input: 'Your order ships today.',
          voice: 'alloy',
          response_format: 'pcm',
          speed: 1.1,
        }),
      });
      expect(res.status).toBe(200);
      const pcm = pcm16FromBuffer(Buffer.from(await res.arrayBuffer()));
      expect(textsIn(pcm, OPENAI_PCM_SAMPLE_RATE)).toEqual(['Your order ships today.']);
      expect(ai.speeches[0]).toMatchObject({ voice: 'alloy', speed: 1.1, responseFormat: 'pcm' });
    });

    it('answers a Deepgram-style live socket with interim and final results, and Finalize', async () => {
      const url = `${ai.wsUrl}/v1/listen?encoding=mulaw&sample_rate=8000&interim_results=true&endpointing=300&language=en`;
      const refused = new WebSocket(url, { headers: { authorization: 'Token wrong' } });
      const status = await new Promise<number>((resolve) =>
        refused.once('unexpected-response', (_q, r) => resolve(r.statusCode ?? 0)),
      );
      expect(status).toBe(401);

      const ws = new WebSocket(url, { headers: { authorization: `Token ${ai.apiKey}` } });
      const results: Record<string, unknown>[] = [];
      ws.on('message', (d) => results.push(JSON.parse(d.toString())));
      await new Promise((resolve) => ws.once('open', resolve));
      const audio = mulawEncode(spokenAudio('I want to cancel my order'));
      for (let at = 0; at < audio.length; at += 160) ws.send(audio.subarray(at, at + 160));
      const silence = Buffer.alloc(160, 0xff);
      for (let i = 0; i < 20; i++) ws.send(silence);
      const final = await waitFor(() => results.find((r) => r.is_final === true), {
        timeoutMs: 3000,
        description: 'a final result',
      });
      expect(final).toMatchObject({
        type: 'Results',
        speech_final: true,
        channel: { alternatives: [{ transcript: 'I want to cancel my order' }] },
      });
      const interims = results.filter((r) => r.is_final === false);
      expect(interims.length).toBeGreaterThan(0);
      ws.send(JSON.stringify({ type: 'Finalize' }));
      await waitFor(() => results.find((r) => r.from_finalize === true), {
        timeoutMs: 3000,
        description: 'the finalize answer',
      });
      ws.send(JSON.stringify({ type: 'CloseStream' }));
      await waitFor(() => results.find((r) => r.type === 'Metadata'), {
        timeoutMs: 3000,
        description: 'metadata',
      });
      expect(ai.listens[0]).toMatchObject({ query: { language: 'en', endpointing: '300' } });
      expect(ai.listens[0].controls.map((c) => c.type)).toEqual(['Finalize', 'CloseStream']);
    });
  });

  describe('fake carriers with streams', () => {
    let fake: FakeCarriers;
    let platform: Server;
    let media: MiniMediaServer;
    let mediaA: MiniMediaServer;
    let platformUrl: string;
    const answers: string[] = [];

    beforeAll(async () => {
      fake = await startFakeCarriers();
      fake.addAccount(B);
      fake.addAccount(A);
      media = await startMiniMediaServer(B);
      mediaA = await startMiniMediaServer(A);
      // Stands in for the calls service: answers with stream markup; carrier_a's transfer URL answers <Dial>.
      platform = createServer((req, res) => {
        const path = req.url ?? '';
        answers.push(path);
        res.writeHead(200, { 'content-type': 'application/xml' });
        if (path.startsWith('/transfer'))
          return res.end('<Response><Dial><Number>+919811112222</Number></Dial></Response>');
        if (path.startsWith('/answer-a'))
          return res.end(
            `<Response>${carrierAStreamMarkup(`${mediaA.url}/media/carrier_a/c2?token=abc`)}</Response>`,
          );
        res.end(
          `<Response>${carrierBStreamMarkup(`${media.url}/media/carrier_b/c1?token=abc`, { callId: 'c1' })}</Response>`,
        );
      });
      await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
      platformUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await fake.close();
      await media.close();
      await mediaA.close();
      await new Promise((resolve) => platform.close(resolve));
    });

    const auth = (account: CarrierAccount) =>
      `Basic ${Buffer.from(`${account.id}:${account.token}`).toString('base64')}`;

    it('answers into the stream, and a REST hang-up stops the stream', async () => {
      const placed = await fetch(`${fake.url}/2010-04-01/Accounts/${B.id}/Calls.json`, {
        method: 'POST',
        headers: { authorization: auth(B), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          To: '+14155550100',
          From: '+14155550101',
          Url: `${platformUrl}/answer`,
        }).toString(),
      });
      expect(placed.status).toBe(201);
      const call = await fake.waitForCall('+14155550100');
      const { answer, media: stream } = await fake.answer(call, { timeScale: TIME_SCALE });
      expect(answer.status).toBe(200);
      expect(stream).not.toBeNull();
      expect(media.upgrades[media.upgrades.length - 1]).toMatchObject({ accepted: true });
      const hangup = await fetch(
        `${fake.url}/2010-04-01/Accounts/${B.id}/Calls/${call.providerCallId}.json`,
        {
          method: 'POST',
          headers: { authorization: auth(B), 'content-type': 'application/x-www-form-urlencoded' },
          body: 'Status=completed',
        },
      );
      expect(hangup.status).toBe(200);
      await stream!.waitForClose(3000);
      expect(stream!.sent('stop')).toHaveLength(1);
    });

    it('records a carrier_b TwiML transfer and ends the stream', async () => {
      await fetch(`${fake.url}/2010-04-01/Accounts/${B.id}/Calls.json`, {
        method: 'POST',
        headers: { authorization: auth(B), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          To: '+14155550200',
          From: '+14155550101',
          Url: `${platformUrl}/answer`,
        }).toString(),
      });
      const call = await fake.waitForCall('+14155550200');
      const { media: stream } = await fake.answer(call, { timeScale: TIME_SCALE });
      const res = await fetch(`${fake.url}/2010-04-01/Accounts/${B.id}/Calls/${call.providerCallId}.json`, {
        method: 'POST',
        headers: { authorization: auth(B), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ Twiml: '<Response><Dial>+919811112222</Dial></Response>' }).toString(),
      });
      expect(res.status).toBe(200);
      const transfer = await fake.waitForTransfer(call.providerCallId);
      expect(dialedNumber(transfer.twiml ?? '')).toBe('+919811112222');
      await stream!.waitForClose(3000);
    });

    it('records a carrier_a transfer to an aleg_url and ends the stream', async () => {
      const placed = await fetch(`${fake.url}/v1/Account/${A.id}/Call/`, {
        method: 'POST',
        headers: { authorization: auth(A), 'content-type': 'application/json' },
        body: JSON.stringify({
          from: '919812300001',
          to: '919812300002',
          answer_url: `${platformUrl}/answer-a`,
        }),
      });
      expect(placed.status).toBe(201);
      const call = await fake.waitForCall('919812300002');
      const { media: stream } = await fake.answer(call, { timeScale: TIME_SCALE });
      const res = await fetch(`${fake.url}/v1/Account/${A.id}/Call/${call.legId}/`, {
        method: 'POST',
        headers: { authorization: auth(A), 'content-type': 'application/json' },
        body: JSON.stringify({ legs: 'aleg', aleg_url: `${platformUrl}/transfer`, aleg_method: 'POST' }),
      });
      expect(res.status).toBe(202);
      const transfer = await fake.waitForTransfer(call.legId);
      expect(transfer).toMatchObject({
        provider: 'carrier_a',
        alegUrl: `${platformUrl}/transfer`,
        alegMethod: 'POST',
      });
      const xml = await fake.post(A, transfer.alegUrl!, { CallUUID: call.legId, CallStatus: 'in-progress' });
      expect(dialedNumber(xml.body)).toBe('+919811112222');
      await stream!.waitForClose(3000);
      expect(stream!.sent('stop')).toEqual([]);
    });

    it("records carrier_a's DTMF request on a live leg, refusing bad keys, a wrong token and an unknown leg", async () => {
      await fetch(`${fake.url}/v1/Account/${A.id}/Call/`, {
        method: 'POST',
        headers: { authorization: auth(A), 'content-type': 'application/json' },
        body: JSON.stringify({
          from: '919812300001',
          to: '919812300003',
          answer_url: `${platformUrl}/answer-a`,
        }),
      });
      const call = await fake.waitForCall('919812300003');
      await fake.answer(call, { timeScale: TIME_SCALE });
      const dtmf = (leg: string, body: object, account = A, token = A.token) =>
        fetch(`${fake.url}/v1/Account/${account.id}/Call/${leg}/DTMF/`, {
          method: 'POST',
          headers: { authorization: auth({ ...account, token }), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await dtmf(call.legId, { digits: '1x' })).status).toBe(400);
      expect((await dtmf(call.legId, { digits: '1', leg: 'cleg' })).status).toBe(400);
      expect((await dtmf(call.legId, { digits: '1' }, A, 'wrong')).status).toBe(401);
      expect((await dtmf('no-such-leg', { digits: '1' })).status).toBe(404);
      expect(fake.digitsSent).toEqual([]);
      expect((await dtmf(call.legId, { digits: '2w#', leg: 'aleg' })).status).toBe(202);
      expect(await fake.waitForDigits(call.legId)).toEqual({
        provider: 'carrier_a',
        id: call.legId,
        digits: '2w#',
        leg: 'aleg',
      });
    });
  });
});
