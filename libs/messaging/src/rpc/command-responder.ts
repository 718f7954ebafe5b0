import { Logger } from '@nestjs/common';
import { Msg, NatsConnection, Subscription } from 'nats';
import { randomUUID } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import { AppError, ErrorCode, MessageHeaders, RpcReply, RpcRequest } from '@vap/messages';
import { databaseUnavailable, isDatabaseUnavailable } from '@vap/persistence';
import { decodeJson, encodeJson } from '../codec';
import { RequestContext } from '../request-context';
import { rpcServerDuration } from '../messaging.metrics';
import { contextFromHeaders, inSpan } from '../trace-propagation';

/**
 * Answers one command message, however it was subscribed (queue group or addressed): decodes the RpcRequest,
 * runs the handler in the request's context and trace span, and replies with what it returned as the data or
 * what it threw as the error.
 */
export class CommandResponder {
  constructor(private readonly log: Logger) {}

  /**
   * Subscribes `subject` (its full NATS name) and answers every message on it. `pattern` names the command in
   * metrics and spans; `name` in logs (an addressed subscription's own subject). Commands being handled stay in
   * `inFlight` until answered, so a closing server can wait for them.
   */
  subscribe(
    nc: NatsConnection,
    subject: string,
    options: {
      pattern: string;
      name?: string;
      queue?: string;
      inFlight: Set<Promise<void>>;
      run: (req: RpcRequest) => Promise<unknown>;
    },
  ): Subscription {
    const { pattern, queue, inFlight, run } = options;
    const name = options.name ?? pattern;
    return nc.subscribe(subject, {
      ...(queue === undefined ? {} : { queue }),
      callback: (err, msg) => {
        if (err) {
          this.log.error(`subscription ${name} failed: ${err.message}`);
          return;
        }
        const job = this.handle(pattern, msg, run)
          .catch((e) => this.log.error(`command ${name} failed unanswered: ${(e as Error).message}`))
          .finally(() => inFlight.delete(job));
        inFlight.add(job);
      },
    });
  }

  async handle(pattern: string, msg: Msg, run: (req: RpcRequest) => Promise<unknown>): Promise<void> {
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
    if (isDatabaseUnavailable(err)) {
      this.log.warn(`handler for ${pattern} failed: the database is unavailable: ${(err as Error).message}`);
      return databaseUnavailable();
    }
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
}
