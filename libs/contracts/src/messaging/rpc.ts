import { ErrorPayload } from '../errors';

/** What every command carries across NATS. partnerId is null only for operator and system commands. */
export interface RpcRequest<T = unknown> {
  partnerId: string | null;
  requestId: string;
  data: T;
}

export type RpcReply<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorPayload };

/** Header names used on NATS messages. */
export const MessageHeaders = {
  requestId: 'X-Request-Id',
  traceparent: 'traceparent',
} as const;
