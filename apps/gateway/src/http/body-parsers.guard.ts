import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import { CAMPAIGN_CSV_BODY_LIMIT } from '@vap/api';
import { CALLBACK_ROUTES, rawCallbackBody } from '../callbacks/callbacks.route';
import { CONNECT_PAGE_ROUTES, connectFormBody } from '../connectors/connect-pages.route';
import { GatewayConfig } from '../config/gateway.config';
import { RAW_BODY_ROUTES } from '../uploads/uploads.route';
import { jsonBody, runMiddleware, sizeInBytes } from './body-parsers';
import { csvBody, isCsvBodyRoute } from './csv-body.route';
import { refuseUnsafeBody } from './input-rules';

/**
 * The largest body a path could take, for refusing a larger declared Content-Length before reading it;
 * null for the signed upload URLs, which stream the file and enforce their own limit.
 */
export function bodyLimitOf(jsonLimit: string): (req: Request) => number | null {
  const json = sizeInBytes(jsonLimit);
  const csv = Math.max(json, sizeInBytes(CAMPAIGN_CSV_BODY_LIMIT));
  return (req) => {
    if (RAW_BODY_ROUTES.some((p) => p.test(req.path))) return null;
    return isCsvBodyRoute(req.path) ? csv : json;
  };
}

/**
 * Reads and parses the body as the last guard: only once the request is routed, authenticated and within
 * its rate limits, so a request that will be refused costs no body reading or parsing (a flood of large
 * bodies from one account must not slow the others). Carrier callbacks keep their raw bytes (signed), the
 * contacts upload and the do-not-call import also take text/csv, signed upload URLs read their own stream,
 * and every other route takes JSON; then the body's strings and depth are checked (input-rules).
 */
@Injectable()
export class BodyParsersGuard implements CanActivate {
  private readonly callbackBody: RequestHandler;
  private readonly csvBody = csvBody();
  private readonly connectFormBody = connectFormBody();
  private readonly jsonBody: RequestHandler;

  constructor(config: GatewayConfig) {
    this.callbackBody = rawCallbackBody(config.BODY_LIMIT);
    this.jsonBody = jsonBody(config.BODY_LIMIT);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (RAW_BODY_ROUTES.some((p) => p.test(req.path))) return true;
    if (CALLBACK_ROUTES.some((p) => p.test(req.path))) {
      await runMiddleware(this.callbackBody, req, res);
      return true;
    }
    if (CONNECT_PAGE_ROUTES.some((p) => p.test(req.path))) {
      // The API key form's post: bytes, read as a form by its page.
      await runMiddleware(this.connectFormBody, req, res);
      return true;
    }
    await runMiddleware(this.csvBody, req, res);
    await runMiddleware(this.jsonBody, req, res);
    refuseUnsafeBody(req);
    return true;
  }
}
