import type { Request } from 'express';

/**
 * Makes a URL a service returned relative to the gateway (the local blob driver's signed URLs) absolute,
 * on the address the partner used; `trust proxy` makes that the public one behind a load balancer.
 */
export function onThisGateway(req: Request, url: string): string {
  return url.startsWith('/') ? `${req.protocol}://${req.get('host')}${url}` : url;
}
