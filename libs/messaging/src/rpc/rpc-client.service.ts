import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { headers as natsHeaders, NatsError, ErrorCode as NatsErrorCode } from 'nats';
import {
  AppError,
  CommandMap,
  ErrorCode,
  MessageHeaders,
  PartnerContext,
  RpcReply,
  RpcRequest,
} from '@vap/messages';
import { NatsConnectionService } from '../nats-connection.service';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { decodeJson, encodeJson } from '../codec';
import { RequestContext } from '../request-context';
import { rpcClientDuration } from '../messaging.metrics';
import { injectTraceContext, inSpan } from '../trace-propagation';
import { SpanKind } from '@opentelemetry/api';
import { addressedSubject } from './addressed-command.server';

export interface RequestOptions {
  timeoutMs?: number;
  /**
   * Sends an addressed command (AddressedCommands) to `<subject>.<address>`: only the process serving that
   * address (AddressedCommandServer) answers, and none serving it is a 502 at once (no responders).
   */
  address?: string;
}

/**
 * Nobody serves the subject, which NATS says at once: for an addressed command, no process holds what the
 * address names (a voice replica no longer holds the call's session). Still the 502 every caller knows.
 */
export class NoResponders extends AppError {
  constructor() {
    super(ErrorCode.INTERNAL_ERROR, 'A downstream service is unavailable; retry', { status: 502 });
  }
}

/** Who a command acts for: a partner's id, the partner as the gateway authenticated it, or nobody (system). */
export type RpcCaller = string | PartnerContext | null;

/** A map of subject -> { request, reply }, as CommandMap is for the platform's commands. */
export type CommandTypes<M> = { [S in keyof M]: { request: unknown; reply: unknown } };
type RequestOf<M, S extends keyof M> = M[S] extends { request: infer R } ? R : never;
type ReplyOf<M, S extends keyof M> = M[S] extends { reply: infer R } ? R : never;

/**
 * Sends a command and waits for its reply. A reply with ok=false becomes the AppError it describes; no
 * responder or no reply in time becomes a 502 INTERNAL_ERROR, so a caller never hangs on a dead service.
 * The subject decides the data it takes and the reply it resolves to (CommandMap); M is another map only
 * in tests of this library, whose subjects are not the platform's.
 */
@Injectable()
export class RpcClient<M extends CommandTypes<M> = CommandMap> {
  constructor(
    private readonly nats: NatsConnectionService,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  request<S extends keyof M & string>(
    subject: S,
    caller: RpcCaller,
    data: RequestOf<M, S>,
    opts: RequestOptions = {},
  ): Promise<ReplyOf<M, S>> {
    return inSpan(`nats request ${subject}`, SpanKind.CLIENT, { 'messaging.destination': subject }, () =>
      this.send<ReplyOf<M, S>, RequestOf<M, S>>(subject, caller, data, opts),
    );
  }

  private async send<TRes, TReq>(
    subject: string,
    caller: RpcCaller,
    data: TReq,
    opts: RequestOptions,
  ): Promise<TRes> {
    // Work outside any request (timers, consumers without an id) still gets an id of its own to trace by.
    const requestId = RequestContext.requestId() ?? randomUUID();
    const message: RpcRequest<TReq> =
      caller !== null && typeof caller === 'object'
        ? { partnerId: caller.id, partner: caller, requestId, data }
        : { partnerId: caller, requestId, data };
    const h = natsHeaders();
    h.set(MessageHeaders.requestId, requestId);
    injectTraceContext(h);
    const stopTimer = rpcClientDuration.startTimer({ subject });
    let reply: RpcReply<TRes>;
    try {
      const target = opts.address === undefined ? subject : addressedSubject(subject, opts.address);
      const msg = await this.nats.nc.request(this.nats.subject(target), encodeJson(message), {
        timeout: opts.timeoutMs ?? this.options.requestTimeoutMs ?? 5000,
        headers: h,
      });
      reply = decodeJson<RpcReply<TRes>>(msg.data);
    } catch (err) {
      const code = err instanceof NatsError ? err.code : undefined;
      if (code === NatsErrorCode.NoResponders) {
        stopTimer({ outcome: 'unavailable' });
        throw new NoResponders();
      }
      if (code === NatsErrorCode.MaxPayloadExceeded) {
        // A body the gateway took (BODY_LIMIT) whose command does not fit in one message is too large for the
        // platform: the caller's 413, not a failure to retry. Bulk uploads send batches and never meet this.
        stopTimer({ outcome: 'too_large' });
        throw new AppError(
          ErrorCode.PAYLOAD_TOO_LARGE,
          'The request is larger than the platform carries in one message; send less data',
        );
      }
      if (code === NatsErrorCode.Timeout) {
        stopTimer({ outcome: 'timeout' });
        throw AppError.downstream('A downstream service did not answer in time; retry');
      }
      stopTimer({ outcome: 'error' });
      throw AppError.downstream('A downstream service failed; retry');
    }
    stopTimer({ outcome: reply.ok ? 'ok' : 'error' });
    if (!reply.ok) throw AppError.fromPayload(reply.error);
    return reply.data;
  }
}
