import type { NextFunction, Request, Response } from 'express';
import { RequestContext } from '@vap/messaging';
import { requestIdFrom } from './logger.module';

/**
 * Gives every HTTP request its id (the caller's X-Request-Id or a new one), echoes it, and runs the rest
 * of the request inside a RequestContext so that logs and outgoing NATS commands carry it.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const id = requestIdFrom(req);
  (req as Request & { id?: string }).id = id;
  res.setHeader('X-Request-Id', id);
  RequestContext.run({ requestId: id }, () => next());
}
