// The sandbox carrier end to end inside the calls service: status callbacks over real HTTP (signed), the
// phone on a real WebSocket to a media plane that plays the agent, and hang-up requests between two
// replicas through a real Postgres.
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import WebSocket, { WebSocketServer } from 'ws';
import {
  MULAW_FRAME_BYTES,
  TELEPHONY_SAMPLE_RATE,
  TextSignalDecoder,
  mulawDecode,
  mulawEncode,
  parseMediaStreamRequest,
  verifyStreamToken,
} from '@vap/media';
import { DEV_SECRETS_KEY, mediaStreamTokenKey, parseSecretsKey } from '@vap/secrets';
import { createTestDatabase, TestDatabase, waitFor } from '@vap/testing';
import { CallsConfig } from '../../config/calls.config';
import { TelephonyConfig } from '../../config/telephony.config';
import { callsDataSourceOptions } from '../../database/data-source';
import { CallProgressService } from '../../progress/call-progress.service';
import { OutboundCall, RawCarrierEvent } from '../carrier-adapter';
import { ALL_CALLEE_LINES, CalleeLines } from './sandbox-script';
import { OfflineCalleeVoice } from './callee-voice';
import { SandboxCallbackClient } from './sandbox-callback-client';
import { SandboxCallRunner } from './sandbox-call-runner';
import { verifySandboxCallback } from './sandbox-signature';
import { SandboxSigningKey } from './sandbox-signing-key';
import { MediaStreamLinks } from '../media-stream-links';

jest.setTimeout(30_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
// Each 100 ms of real processing (synthesis on a loaded machine) is TIME_SCALE x 100 ms of the call's media time:
// at 5, a busy CI machine's second of it pushed a default call past its 20 s, which holds at real time.
const TIME_SCALE = 2;
const INTRO = 'Hi Asha, this is Maya from Acme Health.';
const REPLY = 'Sure, we have three plans.';
const FAREWELL = 'Thank you for your time. Goodbye!';
const agentVoice = new OfflineCalleeVoice();

interface Callback {
  callId: string;
  fields: Record<string, string>;
  signed: boolean;
}

/** One stream as the voice service sees it: the callee's lines, the media frames counted, the marks back. */
interface Stream {
  callId: string;
  tokenValid: boolean;
  heard: string[];
  frames: number;
  marks: string[];
  stopped: boolean;
  start: Record<string, unknown> | null;
}

describe('SandboxCallRunner', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let callbackServer: Server;
  let media: WebSocketServer;
  let config: CallsConfig;
  let key: SandboxSigningKey;
  let replicaA: SandboxCallRunner;
  let replicaB: SandboxCallRunner;
  const callbacks: Callback[] = [];
  const streams = new Map<string, Stream>();
  const applied: { callId: string; event: RawCarrierEvent }[] = [];
  /** How the fake agent ends calls, per call: hang up after its farewell (default) or transfer. */
  const agentPlan = new Map<string, 'hangup' | 'transfer' | 'listen'>();
  let callbackBase: string;

  const progress = {
    apply: async (target: { callId: string }, event: RawCarrierEvent) => {
      applied.push({ callId: target.callId, event });
    },
  } as unknown as CallProgressService;

  function runner(settings: Partial<CallsConfig> = {}): SandboxCallRunner {
    const own = Object.assign(new CallsConfig(), config, settings);
    return new SandboxCallRunner(
      dataSource,
      own,
      new SandboxCallbackClient(key, own),
      progress,
      new MediaStreamLinks(own, telephony()),
    );
  }

  function telephony(): TelephonyConfig {
    return Object.assign(new TelephonyConfig(), { SECRETS_KEY: DEV_SECRETS_KEY });
  }

  beforeAll(async () => {
    // Every line of these calls, the fake agent's and the callee's, synthesized before the first call (the
    // runner's own preparation starts with its first call, and rings here last 30 ms): a line synthesized
    // mid-call on a loaded machine is a pause that runs on the media clock, and a default call would be
    // measured against its 20 s with the synthesizer's cold start in it.
    await agentVoice.prepare([INTRO, REPLY, FAREWELL, ...ALL_CALLEE_LINES]);
    db = await createTestDatabase(SERVER_URL, 'vap_calls_sandbox_runner');
    callbackServer = createServer((req, res) => void receiveCallback(req).then(() => res.end()));
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    callbackBase = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}`;
    media = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => media.once('listening', resolve));
    config = Object.assign(new CallsConfig(), {
      DATABASE_URL: db.url,
      PUBLIC_BASE_URL: callbackBase,
      SANDBOX_STEP_MS: 10,
      // Carriers' address of the voice service, which the sandbox phone inside the deployment cannot use;
      // the fake voice service reads stream paths against it, as the real one does.
      MEDIA_PUBLIC_URL: 'https://media.example.com/voice',
      SANDBOX_MEDIA_URL: `http://127.0.0.1:${(media.address() as AddressInfo).port}`,
      MEDIA_STREAM_TOKEN_TTL_MS: 60_000,
      MEDIA_TIME_SCALE: TIME_SCALE,
    });
    media.on('connection', (socket, req) => playAgent(socket, req));
    key = new SandboxSigningKey(config, telephony());
    dataSource = await new DataSource(callsDataSourceOptions(config)).initialize();
    replicaA = runner();
    replicaB = runner();
    await replicaA.onApplicationBootstrap();
    await replicaB.onApplicationBootstrap();
  });

  afterAll(async () => {
    await replicaA?.beforeApplicationShutdown();
    await replicaB?.beforeApplicationShutdown();
    await new Promise((resolve) => media?.close(resolve));
    await new Promise((resolve) => callbackServer?.close(resolve));
    await dataSource?.destroy();
    await db?.drop();
  });

  async function receiveCallback(req: IncomingMessage): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = `${callbackBase}${req.url}`;
    callbacks.push({
      callId: (req.url ?? '').split('/')[3],
      fields: Object.fromEntries(new URLSearchParams(body.toString())),
      signed: verifySandboxCallback(key.value, req.headers as Record<string, string>, url, body),
    });
  }

  /**
   * The voice service's part, simplified: it checks the stream token, says the intro, answers each callee
   * line it reads, says its farewell after the callee's goodbye and, once the farewell has played (its
   * mark is back), hangs up through the carrier, as calls.voice.hangup does.
   */
  function playAgent(socket: WebSocket, req: IncomingMessage): void {
    const target = parseMediaStreamRequest(req.url ?? '', config.MEDIA_PUBLIC_URL);
    if (!target.ok) return socket.close();
    const verified = verifyStreamToken(
      target.token,
      mediaStreamTokenKey(parseSecretsKey(DEV_SECRETS_KEY)),
      Date.now(),
    );
    const stream: Stream = {
      callId: target.callId,
      tokenValid: verified.ok && verified.claims.callId === target.callId,
      heard: [],
      frames: 0,
      marks: [],
      stopped: false,
      start: null,
    };
    streams.set(target.callId, stream);
    const decoder = new TextSignalDecoder(TELEPHONY_SAMPLE_RATE);
    let streamSid = '';
    const say = async (text: string, mark: string) => {
      const mulaw = mulawEncode(await agentVoice.speak(text));
      for (let at = 0; at < mulaw.length; at += MULAW_FRAME_BYTES) {
        const payload = mulaw.subarray(at, at + MULAW_FRAME_BYTES).toString('base64');
        socket.send(JSON.stringify({ event: 'media', streamSid, media: { payload } }));
      }
      socket.send(JSON.stringify({ event: 'mark', streamSid, mark: { name: mark } }));
    };
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, never>;
      const plan = agentPlan.get(stream.callId) ?? 'hangup';
      if (frame.event === 'start') {
        stream.start = frame;
        streamSid = frame.streamSid;
        void say(INTRO, 'intro');
      } else if (frame.event === 'media') {
        stream.frames++;
        const payload = Buffer.from((frame.media as { payload: string }).payload, 'base64');
        for (const line of decoder.push(mulawDecode(payload))) {
          stream.heard.push(line);
          if (plan === 'listen') continue;
          if (line === CalleeLines.goodbye || line === CalleeLines.neverMind) void say(FAREWELL, 'farewell');
          else if (line === CalleeLines.askForHuman && plan === 'transfer')
            void replicaB.transfer(stream.callId, '+919999900000');
          else void say(REPLY, `reply-${stream.heard.length}`);
        }
      } else if (frame.event === 'mark') {
        const name = (frame.mark as { name: string }).name;
        stream.marks.push(name);
        if (name === 'farewell') void replicaB.hangup(stream.callId, 'agent_ended_call');
      } else if (frame.event === 'stop') {
        stream.stopped = true;
      }
    });
  }

  let calls = 0;
  function place(on: SandboxCallRunner, suffix: string): string {
    const callId = `00000000-0000-4000-8000-${String(++calls).padStart(12, '0')}`;
    const call = {
      callId,
      partnerId: 'p1',
      agentId: 'a1',
      fromNumber: '+15550000001',
      toNumber: `+9198000000${suffix}`,
      agent: {},
      variables: {},
      callbackUrl: (event: string) => `${callbackBase}/callbacks/sandbox/${callId}/${event}`,
    } as unknown as OutboundCall;
    on.start(call, `SB${callId.slice(-12)}`);
    return callId;
  }

  const callbacksOf = (callId: string) => callbacks.filter((c) => c.callId === callId);
  const statuses = (callId: string) =>
    callbacksOf(callId).map((c) => c.fields.CallStatus ?? c.fields.EventType);
  const completed = (callId: string) =>
    waitFor(() => callbacksOf(callId).find((c) => c.fields.CallStatus === 'completed')?.fields, {
      timeoutMs: 25_000,
      description: `call ${callId} completed`,
    });

  it('a default call: rings, answers, converses over the media stream, and bills its media time', async () => {
    const callId = place(replicaA, '99');
    const end = await completed(callId);
    const stream = streams.get(callId)!;
    expect(statuses(callId)).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
    expect(callbacksOf(callId).every((c) => c.signed)).toBe(true);
    expect(callbacksOf(callId)[2].fields).toMatchObject({
      AnsweredBy: 'human',
      CallSid: `SB${callId.slice(-12)}`,
    });
    expect(stream.tokenValid).toBe(true);
    expect(stream.start).toMatchObject({
      start: { callSid: `SB${callId.slice(-12)}`, customParameters: { callId } },
    });
    expect(stream.heard).toEqual([CalleeLines.greeting, CalleeLines.goodbye]);
    expect(stream.marks).toEqual(['intro', 'reply-1', 'farewell']);
    expect(stream.stopped).toBe(true);
    expect(end).toMatchObject({
      HangupSource: 'system',
      HangupCause: 'NORMAL_CLEARING',
      EndCallReason: 'agent_ended_call',
      CallDuration: String(Math.ceil((stream.frames * 20) / 1000)),
    });
    // A default call fits in 20 s of media time, i.e. of wall time at MEDIA_TIME_SCALE=1.
    expect(Number(end.CallDuration)).toBeLessThanOrEqual(20);
    expect(end.RecordingKey).toBeUndefined();
  });

  it('the callee of 05 hangs up after the intro without a word', async () => {
    const callId = place(replicaA, '05');
    const end = await completed(callId);
    expect(end).toMatchObject({
      HangupSource: 'callee',
      Disposition: 'user_hangup_no_speech',
      EndCallReason: 'callee_hung_up',
    });
    expect(streams.get(callId)!.heard).toEqual([]);
  });

  it('a machine answers 04: machine detection in the answer, then its greeting on the stream', async () => {
    const callId = place(replicaA, '04');
    agentPlan.set(callId, 'listen');
    await waitFor(() => streams.get(callId)?.heard.length, { timeoutMs: 15_000 });
    expect(callbacksOf(callId).find((c) => c.fields.CallStatus === 'in-progress')?.fields.AnsweredBy).toBe(
      'machine',
    );
    expect(streams.get(callId)!.heard).toEqual([CalleeLines.machineGreeting]);
    await replicaB.hangup(callId, 'voicemail_detected');
    expect(await completed(callId)).toMatchObject({
      HangupSource: 'system',
      EndCallReason: 'voicemail_detected',
    });
  });

  it('a transfer ends the stream; the callee stays with the human a moment, billed', async () => {
    const callId = place(replicaA, '08');
    agentPlan.set(callId, 'transfer');
    const end = await completed(callId);
    const stream = streams.get(callId)!;
    expect(stream.heard).toEqual([CalleeLines.askForHuman]);
    expect(stream.stopped).toBe(true);
    expect(end).toMatchObject({ Disposition: 'transferred', EndCallReason: 'transferred' });
    expect(Number(end.CallDuration)).toBe(Math.ceil((stream.frames * 20) / 1000 + 2));
  });

  it("prepares the callee's lines once per process, from its first sandbox call on", async () => {
    const prepare = jest.spyOn(OfflineCalleeVoice.prototype, 'prepare');
    try {
      const fresh = runner();
      expect(prepare).not.toHaveBeenCalled();
      const first = place(fresh, '03');
      const second = place(fresh, '02');
      for (const callId of [first, second]) {
        await waitFor(
          () => callbacksOf(callId).find((c) => ['failed', 'busy'].includes(c.fields.CallStatus)),
          {
            timeoutMs: 5_000,
          },
        );
      }
      expect(prepare).toHaveBeenCalledTimes(1);
      expect(prepare.mock.calls[0][0]).toEqual(ALL_CALLEE_LINES);
      expect(ALL_CALLEE_LINES).toEqual(
        expect.arrayContaining([CalleeLines.greeting, ...CalleeLines.monologue]),
      );
      await fresh.beforeApplicationShutdown();
    } finally {
      prepare.mockRestore();
    }
  });

  it('a hang-up while ringing cancels the call', async () => {
    const slow = runner({ SANDBOX_STEP_MS: 5_000 });
    const callId = place(slow, '99');
    await slow.hangup(callId, 'insufficient_balance');
    await waitFor(() => callbacksOf(callId).find((c) => c.fields.CallStatus === 'canceled'), {
      timeoutMs: 5_000,
    });
    expect(statuses(callId)).toEqual(['canceled']);
    expect(callbacksOf(callId)[0].fields).toMatchObject({ EndCallReason: 'insufficient_balance' });
  });

  it('at shutdown a live call is abandoned with the media time it ran, and the phone says stop', async () => {
    const leaving = runner();
    await leaving.onApplicationBootstrap();
    const callId = place(leaving, '07');
    agentPlan.set(callId, 'listen');
    await waitFor(() => streams.get(callId)?.heard.length, { timeoutMs: 15_000 });
    await leaving.beforeApplicationShutdown();
    const stream = streams.get(callId)!;
    await waitFor(() => stream.stopped || undefined, { timeoutMs: 2_000 });
    const abandoned = applied.find((a) => a.callId === callId)?.event;
    expect(abandoned).toMatchObject({
      providerStatus: 'completed',
      endCallReason: 'platform_interrupted',
      durationSeconds: Math.max(1, Math.round((stream.frames * 20) / 1000)),
    });
    expect(callbacksOf(callId).map((c) => c.fields.CallStatus)).not.toContain('completed');
  });
});
