// Commands over real NATS: RpcClient.request against @MessagePattern handlers served by NatsRpcServer.
import { Controller, INestApplicationContext, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AppError, ErrorCode, RpcRequest } from '@vap/messages';
import { RpcClient } from './rpc-client.service';
import { RequestContext } from '../request-context';
import { MessagingTestKit, sleep } from '../testing/messaging-test-kit';

jest.setTimeout(30_000);

const INSTANCE = Symbol('INSTANCE');
const SLOW_MS = 1000;

interface EchoReply {
  instance: string;
  text: string;
  partnerId: string | null;
  requestId: string | undefined;
}

type NoData = Record<string, never>;
/** This spec's own commands: the client types them as the services' clients type CommandMap's. */
interface BillingCommands {
  'billing.echo': { request: { text: string }; reply: EchoReply };
  'billing.nothing': { request: NoData; reply: null };
  'billing.health.ping': { request: NoData; reply: { service: string; ok: true } };
  'billing.app-error': { request: NoData; reply: never };
  'billing.custom-status': { request: NoData; reply: never };
  'billing.crash': { request: NoData; reply: never };
  'billing.throw-string': { request: NoData; reply: never };
  'billing.unencodable': { request: NoData; reply: never };
  'billing.slow': { request: NoData; reply: string };
  'nobody.home': { request: NoData; reply: never };
}

@Controller()
class TestCommands {
  constructor(@Inject(INSTANCE) private readonly instance: string) {}

  @MessagePattern('billing.echo')
  echo(request: RpcRequest<{ text: string }>): EchoReply {
    return {
      instance: this.instance,
      text: request.data.text,
      partnerId: request.partnerId,
      requestId: RequestContext.requestId(),
    };
  }

  @MessagePattern('billing.nothing')
  async nothing(): Promise<void> {
    // A command with no result.
  }

  @MessagePattern('billing.app-error')
  async appError(): Promise<never> {
    await sleep(1);
    throw new AppError(ErrorCode.VALIDATION_ERROR, 'Invalid request: amount: must be positive', {
      details: [{ field: 'amount', message: 'must be positive' }],
    });
  }

  @MessagePattern('billing.custom-status')
  customStatus(): never {
    throw new AppError(ErrorCode.INSUFFICIENT_BALANCE, 'Balance too low', { status: 402 });
  }

  @MessagePattern('billing.crash')
  async crash(): Promise<never> {
    throw new Error('connection to db-secret-host:5432 refused (password=hunter2)');
  }

  @MessagePattern('billing.throw-string')
  throwString(): never {
    throw 'a bare string with internal detail';
  }

  @MessagePattern('billing.unencodable')
  unencodable(): unknown {
    return { amount: BigInt(10) };
  }

  @MessagePattern('billing.slow')
  async slow(): Promise<string> {
    await sleep(SLOW_MS);
    return 'late';
  }
}

async function caught(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected the request to fail');
}

describe('RPC over NATS (RpcClient + NatsRpcServer)', () => {
  let kit: MessagingTestKit;
  let client: RpcClient<BillingCommands>;
  let serverA: INestApplicationContext;

  const startServer = (instance: string) =>
    kit.startApp({
      serviceName: 'billing',
      rpcServer: true,
      controllers: [TestCommands],
      providers: [{ provide: INSTANCE, useValue: instance }],
    });

  beforeAll(async () => {
    kit = await MessagingTestKit.create('vap_msg_rpc');
    serverA = await startServer('a');
    const caller = await kit.startApp({ serviceName: 'caller', requestTimeoutMs: 2000 });
    client = caller.get<RpcClient<BillingCommands>>(RpcClient);
  });

  afterAll(async () => {
    await kit?.dispose();
  });

  it("returns the handler's reply", async () => {
    const reply = await client.request('billing.echo', 'partner-1', { text: 'hello' });
    expect(reply).toMatchObject({ instance: 'a', text: 'hello', partnerId: 'partner-1' });
  });

  it('returns null for a handler without result', async () => {
    await expect(client.request('billing.nothing', null, {})).resolves.toBeNull();
  });

  it('answers the built-in health ping of the service', async () => {
    await expect(client.request('billing.health.ping', null, {})).resolves.toEqual({
      service: 'billing',
      ok: true,
    });
  });

  it('propagates the request id to the handler', async () => {
    const reply = await RequestContext.run({ requestId: 'req-rpc-42' }, () =>
      client.request('billing.echo', null, { text: 'ctx' }),
    );
    expect(reply.requestId).toBe('req-rpc-42');
  });

  it('rethrows an AppError from the handler as the same AppError', async () => {
    const err = await caught(client.request('billing.app-error', 'partner-1', {}));
    expect(err).toBeInstanceOf(AppError);
    expect(err.toPayload()).toEqual({
      code: ErrorCode.VALIDATION_ERROR,
      status: 400,
      message: 'Invalid request: amount: must be positive',
      details: [{ field: 'amount', message: 'must be positive' }],
    });
    expect(err.message).toBe('Invalid request: amount: must be positive');

    const custom = await caught(client.request('billing.custom-status', 'partner-1', {}));
    expect(custom).toBeInstanceOf(AppError);
    expect({ code: custom.code, status: custom.status, message: custom.message }).toEqual({
      code: ErrorCode.INSUFFICIENT_BALANCE,
      status: 402,
      message: 'Balance too low',
    });
  });

  it('turns an unknown error into 500 INTERNAL_ERROR without leaking its message', async () => {
    for (const subject of ['billing.crash', 'billing.throw-string', 'billing.unencodable'] as const) {
      const err = await caught(client.request(subject, 'partner-1', {}));
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe(ErrorCode.INTERNAL_ERROR);
      expect(err.status).toBe(500);
      expect(JSON.stringify(err.toPayload())).not.toMatch(/secret|hunter2|5432|bare string|internal detail/);
    }
  });

  it('fails fast with 502 INTERNAL_ERROR when nobody serves the subject', async () => {
    const started = Date.now();
    const err = await caught(client.request('nobody.home', null, {}, { timeoutMs: 5000 }));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err).toBeInstanceOf(AppError);
    expect({ code: err.code, status: err.status }).toEqual({ code: ErrorCode.INTERNAL_ERROR, status: 502 });
  });

  it('refuses a command larger than one NATS message with 413 PAYLOAD_TOO_LARGE, and sends one that fits', async () => {
    // The server's max_payload (1 MB by default), less than a 1 MB JSON body once the command wraps it.
    const text = 'é'.repeat(512 * 1024);
    const err = await caught(client.request('billing.echo', 'partner-1', { text }));
    expect(err).toBeInstanceOf(AppError);
    expect({ code: err.code, status: err.status }).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      status: 413,
    });
    const fits = await client.request('billing.echo', 'partner-1', { text: 'é'.repeat(256 * 1024) });
    expect(fits.text).toHaveLength(256 * 1024);
  });

  it('fails with 502 INTERNAL_ERROR within about the timeout when the handler is slower', async () => {
    const started = Date.now();
    const err = await caught(client.request('billing.slow', null, {}, { timeoutMs: 300 }));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1000);
    expect(err).toBeInstanceOf(AppError);
    expect({ code: err.code, status: err.status }).toEqual({ code: ErrorCode.INTERNAL_ERROR, status: 502 });
  });

  it('uses the configured default timeout when the call sets none', async () => {
    const fast = await kit.startApp({ serviceName: 'impatient', requestTimeoutMs: 200 });
    const started = Date.now();
    const err = await caught(
      fast.get<RpcClient<BillingCommands>>(RpcClient).request('billing.slow', null, {}),
    );
    expect(Date.now() - started).toBeLessThan(SLOW_MS - 300);
    expect(err.status).toBe(502);
    await kit.stopApp(fast);
  });

  it('shares the load between two servers of the same service (one queue group)', async () => {
    const serverB = await startServer('b');
    // B's subscription reaches the NATS server on its own time (a loaded machine delays it): until then every
    // request goes to A, which says nothing about the queue group. Wait until B has answered once.
    const deadline = Date.now() + 10_000;
    while ((await client.request('billing.echo', null, { text: 'probe' })).instance !== 'b') {
      if (Date.now() > deadline) throw new Error('the second server never took a request');
    }
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, n) => client.request('billing.echo', null, { text: String(n) })),
    );
    const perInstance = new Map<string, number>();
    for (const r of replies) perInstance.set(r.instance, (perInstance.get(r.instance) ?? 0) + 1);
    // Every request is answered exactly once, and both replicas took a share.
    expect(replies.map((r) => Number(r.text)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 60 }, (_, n) => n),
    );
    expect([...perInstance.keys()].sort()).toEqual(['a', 'b']);
    expect(perInstance.get('a')! + perInstance.get('b')!).toBe(60);
    await kit.stopApp(serverB);
  });

  it('finishes a command in progress when its server shuts down', async () => {
    const serverC = await startServer('c');
    await kit.stopApp(serverA);
    // Only c serves now; start a slow command and close c while it runs.
    const pending = client.request('billing.slow', null, {}, { timeoutMs: 5000 });
    await sleep(200);
    await kit.stopApp(serverC);
    await expect(pending).resolves.toBe('late');
  });
});
