import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, ErrorCode } from '@vap/contracts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Bodies are JSON. A body in another content type is refused with 415 before it reaches a handler, so a
 * form-encoded or text body can never be mistaken for an empty one.
 */
export function jsonOnly(extraTypes: RegExp[] = []) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (!BODY_METHODS.has(req.method) || (!length && !chunked)) return next();
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/json' || type.endsWith('+json') || extraTypes.some((t) => t.test(type)))
      return next();
    next(
      new AppError(
        ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        'Request bodies must be JSON (Content-Type: application/json)',
      ),
    );
  };
}

export function jsonBody(limit: string) {
  return json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
}

/** Runs `middleware` on every request except those whose path matches one of `paths`. */
export function exceptPaths(paths: RegExp[], middleware: RequestHandler): RequestHandler {
  return (req, res, next) => (paths.some((p) => p.test(req.path)) ? next() : middleware(req, res, next));
}
