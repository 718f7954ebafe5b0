import { context, propagation, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { MsgHdrs } from 'nats';

/**
 * Trace context across NATS: the sender injects W3C traceparent into the message headers, the receiver
 * continues the trace from them. With no tracing SDK registered (no OTLP endpoint) these are no-ops.
 */
export const tracer = () => trace.getTracer('vap');

export function injectTraceContext(headers: MsgHdrs): void {
  propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
}

export function contextFromHeaders(headers: MsgHdrs | undefined) {
  if (!headers) return context.active();
  return propagation.extract(context.active(), headers, {
    get: (carrier, key) => carrier.get(key) || undefined,
    keys: (carrier) => carrier.keys(),
  });
}

/** Runs fn in a new span (child of the active context, or of `parent`), ending it with fn's outcome. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Record<string, string>,
  fn: (span: Span) => Promise<T>,
  parent = context.active(),
): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: err instanceof Error ? err.message : String(err),
      });
      throw err;
    } finally {
      span.end();
    }
  });
}
