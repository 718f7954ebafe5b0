import { randomBytes } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import { AppError, ErrorCode } from '@vap/messages';
import { Logger } from '@nestjs/common';
import { NatsConnectionService, RpcClient } from '@vap/messaging';
import {
  BENCH_BROWSER_ORIGIN,
  BENCH_VOICE_ID,
  benchAgentSettings,
  benchCall,
  benchSpeechPlan,
} from './bench-call';
import { FakePlatformResponder, startFakePlatformResponder, wireSubject } from './fake-platform-responder';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

// The voice service's own RPC client against the fake: the envelope is the platform's, not a lookalike.
describe('fake platform responder', () => {
  const prefix = `t_${randomBytes(4).toString('hex')}`;
  let nc: NatsConnection;
  let responder: FakePlatformResponder;
  let nats: NatsConnectionService;
  let rpc: RpcClient;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    nc = await connect({ servers: NATS_URL });
    responder = await startFakePlatformResponder(nc, prefix, benchSpeechPlan);
    const options = { serviceName: 'voice', url: NATS_URL, subjectPrefix: prefix, requestTimeoutMs: 2000 };
    nats = new NatsConnectionService(options);
    await nats.onModuleInit();
    rpc = new RpcClient(nats, options);
  });
  afterAll(async () => {
    await nats.onApplicationShutdown();
    await responder.close();
    await nc.drain();
  });

  it('builds wire subjects as the messaging library does', () => {
    expect(wireSubject('p1', 'calls.voice.attach')).toBe('p1.calls.voice.attach');
    expect(wireSubject('', 'calls.voice.attach')).toBe('calls.voice.attach');
    expect(wireSubject(prefix, 'calls.voice.ended')).toBe(nats.subject('calls.voice.ended'));
  });

  it("answers attach with a registered call's context and 404 for an unknown call", async () => {
    const call = benchCall(3, benchAgentSettings('Hello.'), 'http://127.0.0.1:9', randomBytes(32));
    responder.register(call.context);
    const attach = {
      carrier: 'carrier_b' as const,
      nonce: 'n',
      url: call.streamUrl,
      headers: {},
      replicaId: 'bench-voice',
    };
    const context = await rpc.request('calls.voice.attach', null, { ...attach, callId: call.context.callId });
    expect(context).toEqual(call.context);
    expect(context.agent.introMessage).toBe('Hello.');
    expect(responder.attaches.get(call.context.callId)).toBe(1);

    const unknown = rpc.request('calls.voice.attach', null, { ...attach, callId: 'no-such-call' });
    await expect(unknown).rejects.toBeInstanceOf(AppError);
    await expect(unknown).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, status: 404 });
    expect(responder.unknownAttaches).toBe(1);

    responder.forget(call.context.callId);
    await expect(
      rpc.request('calls.voice.attach', null, { ...attach, callId: call.context.callId }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it("answers a browser session's attach (carrier browser) with its context, and not as a phone call", async () => {
    const session = benchCall(4, benchAgentSettings(null), 'http://127.0.0.1:9', randomBytes(32), 'browser');
    expect(session.streamUrl).toMatch(
      new RegExp(`^ws://127\\.0\\.0\\.1:9/browser/${session.context.callId}\\?token=`),
    );
    expect(session.context.provider).toBe('browser');
    responder.register(session.context);
    const attach = {
      callId: session.context.callId,
      nonce: 'n',
      url: session.streamUrl,
      headers: { origin: BENCH_BROWSER_ORIGIN },
      replicaId: 'bench-voice',
    };
    const unknownBefore = responder.unknownAttaches;
    await expect(rpc.request('calls.voice.attach', null, { ...attach, carrier: 'browser' })).resolves.toEqual(
      session.context,
    );
    expect(responder.browserAttaches).toBe(1);
    expect(responder.lastBrowserOrigin).toBe(BENCH_BROWSER_ORIGIN);
    await expect(
      rpc.request('calls.voice.attach', null, { ...attach, carrier: 'carrier_b' }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(responder.unknownAttaches).toBe(unknownBefore + 1);
    responder.forget(session.context.callId);
  });

  it('acks the reports and keeps the agent turns with their latency parts', async () => {
    responder.resetReports();
    const latency = {
      endpointing_ms: 30,
      stt_final_ms: 40,
      llm_first_token_ms: 45,
      tts_first_byte_ms: 50,
      first_frame_out_ms: 52,
      voice_to_voice_ms: 752,
    };
    const line = { atMs: 1000, callSeconds: 1 };
    await expect(
      rpc.request('calls.voice.transcript', null, { ...line, callId: 'c1', role: 'user', content: 'hi' }),
    ).resolves.toEqual({ ok: true });
    await rpc.request('calls.voice.transcript', null, {
      ...line,
      callId: 'c1',
      role: 'bot',
      content: 'Hello',
      latency,
    });
    await rpc.request('calls.voice.transcript', null, {
      ...line,
      callId: 'c1',
      role: 'bot',
      content: 'Intro',
    });
    await expect(
      rpc.request('calls.voice.hangup', null, { callId: 'c1', reason: 'agent_ended_call' }),
    ).resolves.toEqual({ ok: true });
    await expect(
      rpc.request('calls.voice.transfer', null, { callId: 'c1', to: '+91', reason: 'x' }),
    ).resolves.toEqual({
      transferred: true,
    });
    const ended = { callId: 'c1', endCallReason: null, mediaSeconds: 12.3, recording: null };
    await expect(rpc.request('calls.voice.ended', null, ended)).resolves.toEqual({ ok: true });

    expect(responder.transcripts).toHaveLength(3);
    expect(responder.turns.map((t) => t.latency)).toEqual([latency]);
    expect(responder.hangups).toEqual([{ callId: 'c1', reason: 'agent_ended_call' }]);
    expect(responder.transfers).toHaveLength(1);
    expect(responder.ended.get('c1')).toEqual(ended);
  });

  it("answers the speech plan with the benchmark agent's voice on the deployment's TTS", async () => {
    const plan = await rpc.request('agents.speech.plan', 'any-partner', {
      callId: 'c3',
      voiceId: BENCH_VOICE_ID,
      fallbackVoiceIds: [],
      transcriber: null,
      fallbackTranscriber: null,
      dictionaryIds: [],
      spokenLanguages: ['en'],
    });
    expect(plan.tts).toEqual([
      expect.objectContaining({ provider: 'openai', voiceId: BENCH_VOICE_ID, providerVoiceId: 'alloy' }),
    ]);
    // No key in the plan: the deployment's own TTS (the fake OpenAI-compatible server) speaks the voice.
    expect(plan.tts[0].credential).toBeUndefined();
    expect(plan.stt).toEqual([]);
    expect(responder.planLookups).toBe(1);
  });
  it('acks the tool invocations the voice service records and keeps them', async () => {
    const record = {
      callId: 'c2',
      name: 'order_status',
      kind: 'custom' as const,
      functionId: 'fn_1',
      arguments: { ref: 'call_1' },
      outcome: 'success' as const,
      latencyMs: 2,
      logId: null,
      atMs: 10,
    };
    await expect(rpc.request('calls.voice.tool_call', 'p', record)).resolves.toEqual({ ok: true });
    expect(responder.toolCalls).toEqual([record]);
    responder.resetReports();
    expect(responder.toolCalls).toEqual([]);
  });

  it('leaves the plan unanswered when given none (a real agents service serves it)', async () => {
    const quiet = `t_${randomBytes(4).toString('hex')}`;
    const other = await startFakePlatformResponder(nc, quiet, null);
    try {
      const sub = nc.subscribe(wireSubject(quiet, 'agents.speech.plan'), { max: 1 });
      const empty = { tts: [], stt: [], keyterms: [], pronunciations: [] };
      const answered = (async () => {
        for await (const msg of sub)
          msg.respond(new TextEncoder().encode(JSON.stringify({ ok: true, data: empty })));
      })();
      const reply = await nc.request(wireSubject(quiet, 'agents.speech.plan'), '{}', { timeout: 2000 });
      expect(JSON.parse(new TextDecoder().decode(reply.data))).toEqual({ ok: true, data: empty });
      await answered;
      expect(other.planLookups).toBe(0);
    } finally {
      await other.close();
    }
  });
});
