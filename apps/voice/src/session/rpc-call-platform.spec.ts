import { randomBytes } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import {
  AppError,
  CustomFunctionInvokeReply,
  CustomFunctionInvokeRequest,
  CustomFunctionSnapshot,
  RpcReply,
  RpcRequest,
  VoiceCallContext,
  VoiceSendDtmfRequest,
  VoiceToolCallRequest,
  VoiceTranscriptRequest,
} from '@vap/messages';
import { NatsConnectionService, RpcClient } from '@vap/messaging';
import { Aborted } from '../conversation/provider-failure';
import { RpcCallPlatform } from './rpc-call-platform';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const CONTEXT = { callId: 'call_lines', partnerId: 'partner_lines' } as VoiceCallContext;

describe('RpcCallPlatform transcript lines (real NATS)', () => {
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
    const reporter = new RpcCallPlatform(rpc, CONTEXT, { retryDelayMs: 5, maxDelayMs: 20 });
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
    const other = new RpcCallPlatform(rpc, { ...CONTEXT, callId: 'call_other' });
    await other.transcript(line('Hi', 0));
    expect(requests[10]).toMatchObject({ callId: 'call_other', seq: 0 });
    expect(requests[10].streamId).not.toBe(streamId);
  });

  it('does not retry a line the calls service refuses', async () => {
    const reporter = new RpcCallPlatform(rpc, CONTEXT, { retryDelayMs: 5 });
    refuse = true;
    await expect(reporter.transcript(line('Hello', 0))).rejects.toMatchObject({ status: 404 });
    expect(requests).toHaveLength(1);
  });

  it("asks the calls service to send the agent's keys as the call's partner, and answers whether they went", async () => {
    const reporter = new RpcCallPlatform(rpc, CONTEXT);
    await expect(reporter.sendDigits('2w#')).resolves.toBe(true);
    await expect(reporter.sendDigits('9')).resolves.toBe(false);
    expect(keyRequests).toEqual([
      { callId: 'call_lines', digits: '2w#', partnerId: 'partner_lines' },
      { callId: 'call_lines', digits: '9', partnerId: 'partner_lines' },
    ]);
  });
});

describe('RpcCallPlatform partner functions and tool calls (real NATS)', () => {
  const prefix = `voicefns_${randomBytes(4).toString('hex')}`;
  let nats: NatsConnectionService;
  let rpc: RpcClient;
  let services: NatsConnection;
  const invocations: RpcRequest<CustomFunctionInvokeRequest>[] = [];
  const toolCalls: VoiceToolCallRequest[] = [];
  /** Wall ms the fake agents service takes to answer. */
  let answerAfterMs = 0;
  const spec = {
    id: 'fn_1',
    name: 'check_order',
    description: 'Look up an order.',
    parameters: { type: 'object' },
    timeoutMs: 1000,
    speech: { onStart: null, onDelay: null, delayMs: 2000, onFailure: null },
    async: false,
  } satisfies CustomFunctionSnapshot;
  const reply: CustomFunctionInvokeReply = {
    outcome: 'success',
    status: 200,
    latencyMs: 12,
    result: '{"ok":true}',
    error: null,
    variables: { order_status: 'shipped' },
    logId: 'log_1',
  };
  const phoneCall = {
    callId: 'call_fn',
    partnerId: 'partner_fn',
    agentId: 'agent_fn',
    sessionId: 'session_fn',
    direction: 'outbound',
    fromNumber: '+15550001111',
    toNumber: '+15550002222',
    provider: 'sandbox',
  } as VoiceCallContext;

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
    services = await connect({ servers: NATS_URL });
    const respond = (msg: { respond(data: Uint8Array): boolean }, data: unknown) =>
      msg.respond(new TextEncoder().encode(JSON.stringify({ ok: true, data })));
    services.subscribe(`${prefix}.agents.custom_function.invoke`, {
      callback: (_err, msg) => {
        invocations.push(JSON.parse(new TextDecoder().decode(msg.data)));
        setTimeout(() => respond(msg, reply), answerAfterMs);
      },
    });
    services.subscribe(`${prefix}.calls.voice.tool_call`, {
      callback: (_err, msg) => {
        toolCalls.push(
          (JSON.parse(new TextDecoder().decode(msg.data)) as RpcRequest<VoiceToolCallRequest>).data,
        );
        respond(msg, { ok: true });
      },
    });
    await services.flush();
  });

  afterAll(async () => {
    await services?.drain();
    await nats?.onApplicationShutdown();
  });

  beforeEach(() => {
    invocations.length = 0;
    toolCalls.length = 0;
    answerAfterMs = 0;
  });

  it('asks the agents service as the call partner, with the call context and the variables as they are now', async () => {
    const reporter = new RpcCallPlatform(rpc, phoneCall);
    const answer = await reporter.invokeCustomFunction(
      spec,
      { order_number: '42' },
      { first_name: 'Ada' },
      new AbortController().signal,
    );
    expect(answer).toEqual(reply);
    expect(invocations[0].partnerId).toBe('partner_fn');
    expect(invocations[0].data).toEqual({
      partnerId: 'partner_fn',
      functionId: 'fn_1',
      arguments: { order_number: '42' },
      context: {
        callId: 'call_fn',
        browserSessionId: null,
        customerId: null,
        agentId: 'agent_fn',
        direction: 'outbound',
        fromNumber: '+15550001111',
        toNumber: '+15550002222',
        variables: { first_name: 'Ada' },
      },
      // The snapshot's timeout_ms: the agents service gives the request exactly this.
      timeoutMs: 1000,
    });
    await reporter.invokeCustomFunction({ ...spec, timeoutMs: 45_000 }, {}, {}, new AbortController().signal);
    expect(invocations[1].data.timeoutMs).toBe(45_000);
  });

  it('a browser session is named as one, without numbers', async () => {
    const reporter = new RpcCallPlatform(rpc, {
      ...phoneCall,
      direction: 'inbound',
      fromNumber: 'browser',
      toNumber: 'browser',
      provider: 'browser',
    });
    await reporter.invokeCustomFunction(spec, {}, {}, new AbortController().signal);
    expect(invocations[0].data.context).toMatchObject({
      browserSessionId: 'call_fn',
      direction: 'browser',
      fromNumber: null,
      toNumber: null,
    });
  });

  it('stops waiting as soon as the call ends', async () => {
    answerAfterMs = 800;
    const reporter = new RpcCallPlatform(rpc, phoneCall);
    const ended = new AbortController();
    const started = performance.now();
    const pending = reporter.invokeCustomFunction(spec, {}, {}, ended.signal);
    setTimeout(() => ended.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(Aborted);
    expect(performance.now() - started).toBeLessThan(500);
    await expect(reporter.invokeCustomFunction(spec, {}, {}, ended.signal)).rejects.toBeInstanceOf(Aborted);
  });

  it('reports tool calls numbered on the stream', async () => {
    const reporter = new RpcCallPlatform(rpc, phoneCall);
    const record = {
      name: 'check_order',
      kind: 'custom' as const,
      functionId: 'fn_1',
      arguments: { order_number: '42' },
      outcome: 'success' as const,
      latencyMs: 12,
      logId: 'log_1',
      atMs: 1500,
    };
    await reporter.toolCall(record);
    await reporter.toolCall({ ...record, atMs: 3000 });
    expect(toolCalls).toEqual([
      { ...record, callId: 'call_fn', streamId: expect.any(String), seq: 0 },
      { ...record, atMs: 3000, callId: 'call_fn', streamId: toolCalls[0].streamId, seq: 1 },
    ]);
  });
});
