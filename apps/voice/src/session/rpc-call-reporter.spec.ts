import { randomBytes } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import {
  AppError,
  RpcReply,
  RpcRequest,
  VoiceCallContext,
  VoiceSendDtmfRequest,
  VoiceTranscriptRequest,
} from '@vap/messages';
import { NatsConnectionService, RpcClient } from '@vap/messaging';
import { RpcCallReporter } from './rpc-call-reporter';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const CONTEXT = { callId: 'call_lines', partnerId: 'partner_lines' } as VoiceCallContext;

describe('RpcCallReporter transcript lines (real NATS)', () => {
  const prefix = `voicelines_${randomBytes(4).toString('hex')}`;
  let nats: NatsConnectionService;
  let rpc: RpcClient;
  let calls: NatsConnection;
  /** Every request the fake calls service got, acknowledged or not. */
  const requests: VoiceTranscriptRequest[] = [];
  /** The fake calls service fails this many requests first (restarting), or refuses them all. */
  let failFirst = 0;
  let refuse = false;
  /** The keys asked of the fake calls service, with the partner each was asked for. */
  const keyRequests: (VoiceSendDtmfRequest & { partnerId: string | null })[] = [];

  beforeAll(async () => {
    const options = {
      serviceName: 'voice-spec',
      url: NATS_URL,
      subjectPrefix: prefix,
      requestTimeoutMs: 1000,
    };
    nats = new NatsConnectionService(options);
    await nats.onModuleInit();
    rpc = new RpcClient(nats, options);
    calls = await connect({ servers: NATS_URL });
    calls.subscribe(`${prefix}.calls.voice.transcript`, {
      callback: (_err, msg) => {
        const request = JSON.parse(new TextDecoder().decode(msg.data)) as RpcRequest<VoiceTranscriptRequest>;
        requests.push(request.data);
        let reply: RpcReply;
        if (refuse) reply = { ok: false, error: AppError.notFound('Call').toPayload() };
        else if (failFirst > 0) {
          failFirst -= 1;
          reply = { ok: false, error: AppError.downstream('restarting').toPayload() };
        } else reply = { ok: true, data: { ok: true } };
        msg.respond(new TextEncoder().encode(JSON.stringify(reply)));
      },
    });
    calls.subscribe(`${prefix}.calls.voice.send_dtmf`, {
      callback: (_err, msg) => {
        const request = JSON.parse(new TextDecoder().decode(msg.data)) as RpcRequest<VoiceSendDtmfRequest>;
        keyRequests.push({ ...request.data, partnerId: request.partnerId ?? null });
        const reply: RpcReply = { ok: true, data: { sent: request.data.digits !== '9' } };
        msg.respond(new TextEncoder().encode(JSON.stringify(reply)));
      },
    });
    await calls.flush();
  });

  afterAll(async () => {
    await calls?.drain();
    await nats?.onApplicationShutdown();
  });

  beforeEach(() => {
    requests.length = 0;
    failFirst = 0;
    refuse = false;
  });

  const line = (content: string, atMs: number) => ({
    role: 'bot' as const,
    content,
    atMs,
    callSeconds: atMs / 1000,
  });

  it('retries a line until the calls service has it, numbered on its stream so a repeat counts once', async () => {
    const reporter = new RpcCallReporter(rpc, CONTEXT, { retryDelayMs: 5, maxDelayMs: 20 });
    failFirst = 8;
    await reporter.transcript(line('Hello from Acme', 0));
    await reporter.transcript(line('How can I help?', 1500));
    // Nine sends of the first line (eight failed), each the same line at the same place; then the second.
    expect(requests).toHaveLength(10);
    const streamId = requests[0].streamId;
    expect(streamId).toEqual(expect.any(String));
    expect(requests.slice(0, 9).every((r) => r.seq === 0 && r.content === 'Hello from Acme')).toBe(true);
    expect(requests[9]).toEqual({
      ...line('How can I help?', 1500),
      callId: 'call_lines',
      streamId,
      seq: 1,
    });
    // Another call's stream has its own id and count.
    const other = new RpcCallReporter(rpc, { ...CONTEXT, callId: 'call_other' });
    await other.transcript(line('Hi', 0));
    expect(requests[10]).toMatchObject({ callId: 'call_other', seq: 0 });
    expect(requests[10].streamId).not.toBe(streamId);
  });

  it('does not retry a line the calls service refuses', async () => {
    const reporter = new RpcCallReporter(rpc, CONTEXT, { retryDelayMs: 5 });
    refuse = true;
    await expect(reporter.transcript(line('Hello', 0))).rejects.toMatchObject({ status: 404 });
    expect(requests).toHaveLength(1);
  });

  it("asks the calls service to send the agent's keys as the call's partner, and answers whether they went", async () => {
    const reporter = new RpcCallReporter(rpc, CONTEXT);
    await expect(reporter.sendDigits('2w#')).resolves.toBe(true);
    await expect(reporter.sendDigits('9')).resolves.toBe(false);
    expect(keyRequests).toEqual([
      { callId: 'call_lines', digits: '2w#', partnerId: 'partner_lines' },
      { callId: 'call_lines', digits: '9', partnerId: 'partner_lines' },
    ]);
  });
});
