import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { Msg, Subscription } from 'nats';
import { firstValueFrom, defaultIfEmpty } from 'rxjs';
import { randomUUID } from 'node:crypto';
import { AppError, ErrorCode, MessageHeaders, RpcReply, RpcRequest } from '@vap/contracts';
import { NatsConnectionService } from '../nats-connection.service';
import { decodeJson, encodeJson } from '../codec';
import { RequestContext } from '../request-context';
import { rpcServerDuration } from '../messaging.metrics';
import { contextFromHeaders, inSpan } from '../trace-propagation';
import { SpanKind } from '@opentelemetry/api';

/**
 * A Nest transport strategy for `@MessagePattern(subject)` handlers: each pattern is subscribed under the
 * deployment prefix with the service's queue group, so replicas share the load. Handlers receive the
 * RpcRequest; what they return is the reply's data, what they throw becomes the reply's error.
 */
export class NatsRpcServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log = new Logger('NatsRpcServer');

  constructor(private readonly nats: NatsConnectionService) {
    super();
  }

  listen(callback: () => void): void {
    const queue = this.nats.options.serviceName;
    this.subscribe(`${queue}.health.ping`, queue, async () => ({ service: queue, ok: true }));
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler) continue;
      this.subscribe(pattern, queue, async (request) => {
        const result = await handler(request);
        return firstValueFrom(this.transformToObservable(result).pipe(defaultIfEmpty(null)));
      });
    }
    callback();
  }

  private subscribe(pattern: string, queue: string, run: (req: RpcRequest) => Promise<unknown>): void {
    const sub = this.nats.nc.subscribe(this.nats.subject(pattern), {
      queue,
      callback: (err, msg) => {
        if (err) {
          this.log.error(`subscription ${pattern} failed: ${err.message}`);
          return;
        }
        const job = this.handle(pattern, msg, run)
          .catch((e) => this.log.error(`command ${pattern} failed unanswered: ${(e as Error).message}`))
          .finally(() => this.inFlight.delete(job));
        this.inFlight.add(job);
      },
    });
    this.subscriptions.push(sub);
  }

  private async handle(pattern: string, msg: Msg, run: (req: RpcRequest) => Promise<unknown>): Promise<void> {
    let request: RpcRequest;
    try {
      request = decodeJson<RpcRequest>(msg.data);
    } catch {
      this.respond(msg, {
        ok: false,
        error: new AppError(ErrorCode.VALIDATION_ERROR, 'Malformed command').toPayload(),
      });
      return;
    }
    const requestId = request.requestId || msg.headers?.get(MessageHeaders.requestId) || randomUUID();
    const stopTimer = rpcServerDuration.startTimer({ subject: pattern });
    const parent = contextFromHeaders(msg.headers);
    await RequestContext.run({ requestId }, () =>
      inSpan(
        `nats handle ${pattern}`,
        SpanKind.SERVER,
        { 'messaging.destination': pattern },
        async (span) => {
          try {
            const data = await run(request);
            stopTimer({ outcome: 'ok' });
            this.respond(msg, { ok: true, data: data ?? null });
          } catch (err) {
            const error = this.toError(pattern, err);
            stopTimer({ outcome: 'error' });
            span.setAttribute('vap.error_code', error.code);
            this.respond(msg, { ok: false, error: error.toPayload() });
          }
        },
        parent,
      ),
    );
  }

  private toError(pattern: string, err: unknown): AppError {
    if (err instanceof AppError) return err;
    // Nest's RPC exception layer rethrows an AppError as its payload; unknown errors it has already logged.
    if (AppError.isPayload(err)) return AppError.fromPayload(err);
    if (!(err && typeof err === 'object' && (err as { status?: unknown }).status === 'error')) {
      this.log.error(`handler for ${pattern} failed: ${err instanceof Error ? err.stack : String(err)}`);
    }
    return AppError.internal();
  }

  private respond(msg: Msg, reply: RpcReply): void {
    if (!msg.reply) return;
    const data = encodeJson(reply); // a result that cannot be encoded throws to handle(), which answers 500
    try {
      msg.respond(data);
    } catch (err) {
      // The connection is closed: the caller gets its timeout (502) instead of a reply.
      this.log.warn(`reply on ${msg.subject} not sent: ${(err as Error).message}`);
    }
  }

  /** Stop taking commands, then wait for the ones being handled so that none is lost in a restart. */
  async close(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.drain().catch(() => undefined)));
    await Promise.all([...this.inFlight]);
  }

  on(): void {
    // Connection events are handled by NatsConnectionService.
  }

  unwrap<T>(): T {
    return this.nats.nc as T;
  }
}
