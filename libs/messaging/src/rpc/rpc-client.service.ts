import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { headers as natsHeaders, NatsError, ErrorCode as NatsErrorCode } from 'nats';
import { AppError, MessageHeaders, PartnerContext, RpcReply, RpcRequest } from '@vap/contracts';
import { NatsConnectionService } from '../nats-connection.service';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { decodeJson, encodeJson } from '../codec';
import { RequestContext } from '../request-context';
import { rpcClientDuration } from '../messaging.metrics';
import { injectTraceContext, inSpan } from '../trace-propagation';
import { SpanKind } from '@opentelemetry/api';

export interface RequestOptions {
  timeoutMs?: number;
}

/**
 * Sends a command and waits for its reply. A reply with ok=false becomes the AppError it describes; no
 * responder or no reply in time becomes a 502 INTERNAL_ERROR, so a caller never hangs on a dead service.
 */
@Injectable()
export class RpcClient {
  constructor(
    private readonly nats: NatsConnectionService,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  request<TRes, TReq = unknown>(
    subject: string,
    caller: string | PartnerContext | null,
    data: TReq,
    opts: RequestOptions = {},
  ): Promise<TRes> {
    return inSpan(`nats request ${subject}`, SpanKind.CLIENT, { 'messaging.destination': subject }, () =>
      this.send<TRes, TReq>(subject, caller, data, opts),
    );
  }

  private async send<TRes, TReq>(
    subject: string,
    caller: string | PartnerContext | null,
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
      const msg = await this.nats.nc.request(this.nats.subject(subject), encodeJson(message), {
        timeout: opts.timeoutMs ?? this.options.requestTimeoutMs ?? 5000,
        headers: h,
      });
      reply = decodeJson<RpcReply<TRes>>(msg.data);
    } catch (err) {
      const code = err instanceof NatsError ? err.code : undefined;
      if (code === NatsErrorCode.NoResponders) {
        stopTimer({ outcome: 'unavailable' });
        throw AppError.downstream('A downstream service is unavailable; retry');
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
