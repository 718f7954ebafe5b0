import { randomBytes } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import { AppError, RpcReply, RpcRequest, VoiceCallContext, VoiceEndedRequest } from '@vap/messages';
import { NatsConnectionService, RpcClient } from '@vap/messaging';
import { recordingKey } from './call-recording';
import { reportEnded } from './ended-report';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const CONTEXT = { callId: 'call_rec', partnerId: 'partner_rec' } as VoiceCallContext;

describe('reportEnded (real NATS)', () => {
  const prefix = `voiceended_${randomBytes(4).toString('hex')}`;
  let nats: NatsConnectionService;
  let rpc: RpcClient;
  let calls: NatsConnection;
  const received: VoiceEndedRequest[] = [];
  /** The fake calls service fails this many reports first (a replica restarting). */
  let failFirst = 0;

  beforeAll(async () => {
    const options = {
      serviceName: 'voice-spec',
      url: NATS_URL,
      subjectPrefix: prefix,
      // Far above any reply's time on a loaded machine: a timed-out attempt would be a retry the test did not ask for.
      requestTimeoutMs: 10000,
    };
    nats = new NatsConnectionService(options);
    await nats.onModuleInit();
    rpc = new RpcClient(nats, options);
    calls = await connect({ servers: NATS_URL });
    calls.subscribe(`${prefix}.calls.voice.ended`, {
      callback: (_err, msg) => {
        const request = JSON.parse(new TextDecoder().decode(msg.data)) as RpcRequest<VoiceEndedRequest>;
        let reply: RpcReply;
        if (failFirst > 0) {
          failFirst -= 1;
          reply = { ok: false, error: AppError.downstream('restarting').toPayload() };
        } else {
          received.push(request.data);
          reply = { ok: true, data: { ok: true } };
        }
        msg.respond(new TextEncoder().encode(JSON.stringify(reply)));
      },
    });
    // The subscription must reach the server before the first report, or that report finds no responder.
    await calls.flush();
  });

  afterAll(async () => {
    await calls?.drain();
    await nats?.onApplicationShutdown();
  });

  beforeEach(() => {
    received.length = 0;
    failFirst = 0;
  });

  it("reports the recording the call stored, under the calls service's key, with the call's outcome", async () => {
    const retries: number[] = [];
    failFirst = 2;
    await reportEnded(
      rpc,
      CONTEXT,
      {
        endCallReason: 'agent_ended_call',
        mediaSeconds: 12.5,
        recording: { durationSeconds: 12 },
        modelUsage: [
          {
            provider: 'groq',
            model: 'llama-3.3-70b-versatile',
            paidBy: 'account',
            inputTokens: 120,
            outputTokens: 30,
            replies: 2,
          },
          {
            provider: 'platform',
            model: 'default',
            paidBy: null,
            inputTokens: 0,
            outputTokens: 0,
            replies: 1,
          },
        ],
      },
      ['elevenlabs'],
      { retryDelayMs: 10, onRetry: (attempt) => retries.push(attempt) },
    );
    expect(recordingKey('partner_rec', 'call_rec')).toBe('recordings/partner_rec/call_rec.wav');
    expect(retries).toEqual([1, 2]);
    expect(received).toEqual([
      {
        callId: 'call_rec',
        endCallReason: 'agent_ended_call',
        mediaSeconds: 12.5,
        recording: { storageKey: 'recordings/partner_rec/call_rec.wav', durationSeconds: 12 },
        platformPaidSpeech: ['elevenlabs'],
        // Whose key answered each model; the tokens go with the lines.
        modelPaidBy: [
          { provider: 'groq', model: 'llama-3.3-70b-versatile', paidBy: 'account' },
          { provider: 'platform', model: 'default', paidBy: null },
        ],
      },
    ]);
  });

  it('reports a call without a recording, and gives up once its retry window has passed', async () => {
    await reportEnded(rpc, CONTEXT, { endCallReason: null, mediaSeconds: 3, recording: null }, []);
    expect(received).toEqual([
      {
        callId: 'call_rec',
        endCallReason: null,
        mediaSeconds: 3,
        recording: null,
        platformPaidSpeech: [],
        modelPaidBy: [],
      },
    ]);
    failFirst = 1000;
    const started = Date.now();
    await expect(
      reportEnded(rpc, CONTEXT, { endCallReason: null, mediaSeconds: 3, recording: null }, [], {
        retryDelayMs: 5,
        maxDelayMs: 20,
        deadline: Date.now() + 300,
      }),
    ).rejects.toThrow(/restarting/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('keeps trying until the calls service acknowledges, however many attempts that takes', async () => {
    // A calls service away for a while (a restart): far more failures than a fixed number of attempts allowed.
    failFirst = 12;
    const retries: number[] = [];
    await reportEnded(
      rpc,
      CONTEXT,
      { endCallReason: 'agent_ended_call', mediaSeconds: 3, recording: null },
      [],
      { retryDelayMs: 5, maxDelayMs: 20, onRetry: (attempt) => retries.push(attempt) },
    );
    expect(retries).toHaveLength(12);
    expect(received).toEqual([
      {
        callId: 'call_rec',
        endCallReason: 'agent_ended_call',
        mediaSeconds: 3,
        recording: null,
        platformPaidSpeech: [],
        modelPaidBy: [],
      },
    ]);
  });

  it('does not retry a report the calls service refuses', async () => {
    let attempts = 0;
    const refusing = {
      request: async () => {
        attempts += 1;
        throw AppError.notFound('Call');
      },
    } as unknown as RpcClient;
    await expect(
      reportEnded(refusing, CONTEXT, { endCallReason: null, mediaSeconds: 1, recording: null }, []),
    ).rejects.toMatchObject({ status: 404 });
    expect(attempts).toBe(1);
  });
});
