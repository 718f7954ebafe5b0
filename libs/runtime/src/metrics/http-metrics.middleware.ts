import type { NextFunction, Request, Response } from 'express';
import { Histogram, register } from 'prom-client';

const httpDuration =
  (register.getSingleMetric('vap_http_request_duration_seconds') as
    Histogram<'method' | 'route' | 'status'> | undefined) ??
  new Histogram({
    name: 'vap_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });

/**
 * Times every request. The label is the matched route pattern (/api/v2/customers/:id), never the raw path,
 * so ids do not explode the series; requests that match no route count as "unmatched".
 */
export function httpMetricsMiddleware(req: Request, res: Response, next: NextFunction): void {
  const stop = httpDuration.startTimer({ method: req.method });
  res.on('finish', () => {
    const routePath = (req.route as { path?: string } | undefined)?.path;
    stop({ route: routePath ? `${req.baseUrl}${routePath}` : 'unmatched', status: String(res.statusCode) });
  });
  next();
}
