import { isUtf8 } from 'node:buffer';
import type { Socket } from 'node:net';
import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, ErrorCode } from '@vap/messages';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const UNSUPPORTED_BODY = Symbol('unsupportedBody');
type MarkedRequest = Request & { [UNSUPPORTED_BODY]?: AppError };

/**
 * Bodies are JSON. A body in another content type is marked here, left unparsed, and refused with 415 by
 * UnsupportedBodyGuard once a route is matched (an unknown route stays 404, whatever its body), so a
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
    (req as MarkedRequest)[UNSUPPORTED_BODY] = new AppError(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      'Request bodies must be JSON (Content-Type: application/json)',
    );
    next();
  };
}

/** The 415 of a request whose body jsonOnly refused, if it did. */
export function unsupportedBodyOf(req: Request): AppError | undefined {
  return (req as MarkedRequest)[UNSUPPORTED_BODY];
}

/**
 * A body parser's `verify` hook: a body declared (or defaulted to) UTF-8 must be UTF-8. Decoding replaces each
 * invalid byte with U+FFFD, which would silently store an identifier other than the one sent (RFC 8259: JSON
 * is UTF-8).
 */
export function refuseInvalidUtf8(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding.toLowerCase() !== 'utf-8' || isUtf8(body)) return;
  const detail = { field: 'body', message: 'the body must be valid UTF-8' };
  throw AppError.validation([detail], `Invalid request: ${detail.message}`);
}

/** A size in the form BODY_LIMIT takes (1mb, 512kb, 1048576b), in bytes. */
export function sizeInBytes(limit: string): number {
  const match = /^(\d+)(b|kb|mb)$/i.exec(limit.trim());
  if (!match) throw new Error(`not a size: ${limit}`);
  const unit = { b: 1, kb: 1024, mb: 1024 * 1024 }[match[2].toLowerCase() as 'b' | 'kb' | 'mb'];
  return Number(match[1]) * unit;
}

/**
 * A body whose declared Content-Length exceeds the largest the route could take is refused with 413
 * before a byte of it is read (a body parser would read, and discard, all of it first).
 */
export function refuseDeclaredOversize(limitOf: (req: Request) => number | null): RequestHandler {
  return (req, _res, next) => {
    const limit = limitOf(req);
    const length = Number(req.headers['content-length']);
    if (limit === null || !Number.isFinite(length) || length <= limit) return next();
    next(new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `Request body exceeds the size limit (${limit} bytes)`));
  };
}

/** How long a connection may go on sending the body of a request already answered. */
export const UNREAD_BODY_GRACE_MS = 5000;

/**
 * A request answered before its body was read (refused: 401, 413, 429...) keeps its connection while the
 * client sends the rest, which Node discards unread: closing at once would reset a client still sending, and
 * it would never see the answer. The rest must arrive within UNREAD_BODY_GRACE_MS, else the connection is
 * closed, so a declared length nobody sends holds nothing for long.
 */
export function boundUnreadBodies(graceMs = UNREAD_BODY_GRACE_MS): RequestHandler {
  return (req, res, next) => {
    res.once('finish', () => {
      if (req.complete) return;
      const timer = setTimeout(() => {
        if (!req.complete) req.socket.destroy();
      }, graceMs);
      timer.unref();
      req.once('end', () => clearTimeout(timer));
      req.once('close', () => clearTimeout(timer));
    });
    next();
  };
}

/** How long the connection of a refused request goes on taking (and discarding) what its client still sends. */
export const LINGER_MS = 2000;

/**
 * Answers a request whose body is still unread (refused before reading it) with `Connection: close`, so the
 * gateway reads no more of a body it refused than was already in flight. Node ends such an answer with
 * socket.destroySoon(), which closes at once, and closing a socket that still holds unread bytes resets the
 * connection: a client still sending its body could lose the answer. So this socket half-closes after the
 * answer instead and discards what still arrives until its client closes (a client stops sending once it
 * has the answer), for at most LINGER_MS.
 */
export function closeUnreadBody(req: Request, res: Response, lingerMs = LINGER_MS): void {
  if (req.complete || res.headersSent) return;
  res.setHeader('Connection', 'close');
  const socket = req.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => {
    socket.end();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Runs an Express middleware as a promise: resolves when it calls next(), rejects with what it passes. */
export function runMiddleware(middleware: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    middleware(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
  });
}

export function jsonBody(limit: string) {
  return json({
    limit,
    strict: true,
    type: ['application/json', 'application/*+json'],
    verify: refuseInvalidUtf8,
  });
}

/** Runs `middleware` on every request except those whose path matches one of `paths`. */
export function exceptPaths(paths: RegExp[], middleware: RequestHandler): RequestHandler {
  return (req, res, next) => (paths.some((p) => p.test(req.path)) ? next() : middleware(req, res, next));
}
