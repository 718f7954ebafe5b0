import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { NextFunction, Request, Response } from 'express';
import { tracer } from '@vap/messaging';

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (spans go to `<endpoint>/v1/traces`
 * as OTLP/HTTP JSON); otherwise tracing stays a no-op and costs nothing. Returns the flush-and-stop hook.
 */
export function startTracing(
  service: string,
  endpoint: string | undefined,
): (() => Promise<void>) | undefined {
  if (!endpoint) return undefined;
  const provider = new BasicTracerProvider({ resource: new Resource({ [ATTR_SERVICE_NAME]: service }) });
  provider.addSpanProcessor(
    new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` })),
  );
  provider.register({
    contextManager: new AsyncLocalStorageContextManager(),
    propagator: new W3CTraceContextPropagator(),
  });
  return () => provider.shutdown();
}

/** A server span per HTTP request, continuing the caller's trace when it sent a traceparent. */
export function tracingMiddleware(req: Request, res: Response, next: NextFunction): void {
  const parent = propagation.extract(context.active(), req.headers);
  const span = tracer().startSpan(
    `HTTP ${req.method}`,
    { kind: SpanKind.SERVER, attributes: { 'http.method': req.method } },
    parent,
  );
  res.on('finish', () => {
    const route = (req.route as { path?: string } | undefined)?.path;
    if (route) span.updateName(`HTTP ${req.method} ${req.baseUrl}${route}`);
    span.setAttribute('http.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(trace.setSpan(parent, span), () => next());
}
