import { Controller, Get, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { AppError, CONNECT_STATE_TTL_MS, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { Public } from '@vap/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { cookieValue } from '../console/console-tokens';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';
import { apiKeyFormPage, failurePage, successPage } from './connect-page-html';
import { CONNECT_BINDING_COOKIE, CONNECT_CALLBACK_PATH, CONNECT_PATH } from './connect-pages.route';

/** A code exchange waits for the connector's token endpoint (10 s at most) and a little more. */
const CALLBACK_RPC_TIMEOUT_MS = 20_000;

/** Headers of every page: nothing cached, framed, referred (the link's token is in the URL) or scripted. */
function pageHeaders(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
}

function html(res: Response, status: number, body: string): void {
  pageHeaders(res);
  res.status(status).type('text/html; charset=utf-8').send(body);
}

/** One short query value, or null (a repeated or missing parameter). */
function single(value: unknown, max = 2048): string | null {
  return typeof value === 'string' && value.length <= max ? value : null;
}

/**
 * The hosted connect pages a partner's customer opens (no API key): the link, the API key form's post and the
 * OAuth 2.0 callback. Every outcome is a small HTML page (never an envelope or a stack trace); the state lives in
 * the agents service's tables, nothing here is kept in memory. Left out of the OpenAPI document: not an API.
 */
@Public()
@ApiExcludeController()
@RateLimitBucket('callbacks')
@Controller(CONNECT_PATH)
export class ConnectPagesController {
  private readonly log = new Logger(ConnectPagesController.name);

  constructor(
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
  ) {}

  private redirectUri(): string {
    return `${this.config.PUBLIC_BASE_URL.replace(/\/+$/, '')}${CONNECT_CALLBACK_PATH}`;
  }

  /**
   * The browser binding of an authorization attempt (RFC 6749 §10.12): HttpOnly, Secure on an HTTPS base URL,
   * SameSite=Lax (the authorization server's redirect back is a top-level GET, which carries it), sent only to
   * the callback, living as long as the attempt's state.
   */
  private bindingCookie(value: string, maxAgeSeconds: number): string {
    const secure = this.config.PUBLIC_BASE_URL.startsWith('https:') ? '; Secure' : '';
    return (
      `${CONNECT_BINDING_COOKIE}=${value}; Path=${CONNECT_CALLBACK_PATH}; Max-Age=${maxAgeSeconds}` +
      `; HttpOnly; SameSite=Lax${secure}`
    );
  }

  @Get('oauth/callback')
  async callback(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const state = single(query.state);
    if (!state) return html(res, 400, failurePage('This page was opened without its sign-in details.'));
    const browserBinding = cookieValue(req.headers.cookie, CONNECT_BINDING_COOKIE);
    // Refused before anything reaches the agents service: no code is exchanged for a browser that did not start
    // the attempt (a fixed page: nothing the request carried is shown).
    if (!browserBinding)
      return html(
        res,
        403,
        failurePage(
          'This sign-in was started in another browser. Open your connect link again in this browser.',
        ),
      );
    try {
      const done = await this.rpc.request(
        Subjects.agents.connectCallback,
        null,
        {
          state,
          code: single(query.code),
          error: single(query.error, 200),
          redirectUri: this.redirectUri(),
          browserBinding,
        },
        { timeoutMs: CALLBACK_RPC_TIMEOUT_MS },
      );
      res.setHeader('Set-Cookie', this.bindingCookie('', 0));
      html(res, 200, successPage(done.connectorName));
    } catch (err) {
      this.fail(res, err);
    }
  }

  @Get(':token')
  async open(@Param('token') token: string, @Res() res: Response): Promise<void> {
    try {
      const browserBinding = randomBytes(32).toString('base64url');
      const next = await this.rpc.request(Subjects.agents.connectOpen, null, {
        token,
        redirectUri: this.redirectUri(),
        browserBinding,
      });
      if (next.kind === 'redirect') {
        pageHeaders(res);
        res.setHeader('Set-Cookie', this.bindingCookie(browserBinding, CONNECT_STATE_TTL_MS / 1000));
        res.redirect(302, next.url);
        return;
      }
      html(res, 200, apiKeyFormPage(next.connectorName, null));
    } catch (err) {
      this.fail(res, err);
    }
  }

  /** The API key form's post. The single-use token in the URL is what a forged cross-site post cannot know. */
  @Post(':token')
  async submit(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const apiKey = new URLSearchParams(body).get('api_key') ?? '';
    try {
      const done = await this.rpc.request(Subjects.agents.connectSubmitKey, null, { token, apiKey });
      html(res, 200, successPage(done.connectorName));
    } catch (err) {
      if (err instanceof AppError && err.status === 400) {
        // The form again, with what was wrong; the link is not spent.
        try {
          const again = await this.rpc.request(Subjects.agents.connectOpen, null, {
            token,
            redirectUri: this.redirectUri(),
            browserBinding: randomBytes(32).toString('base64url'),
          });
          if (again.kind === 'api_key_form')
            return html(res, 400, apiKeyFormPage(again.connectorName, err.message));
        } catch (reopen) {
          return this.fail(res, reopen);
        }
      }
      this.fail(res, err);
    }
  }

  private fail(res: Response, err: unknown): void {
    if (err instanceof AppError && err.status < 500) return html(res, err.status, failurePage(err.message));
    if (err instanceof AppError && err.status === 502 && !/downstream service/i.test(err.message))
      return html(res, 502, failurePage(err.message));
    this.log.warn(`connect page failed: ${(err as Error).message}`);
    html(res, 502, failurePage('Something went wrong on our side. Please try your link again in a minute.'));
  }
}
