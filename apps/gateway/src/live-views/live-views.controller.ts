import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { BrowserSessionDto, CallDto } from '@vap/api';
import { AppError, BrowserSessionStatus, CallStatus, ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { absoluteUrls as browserSessionUrls } from '../browser-sessions/browser-sessions.controller';
import { absoluteUrls as callUrls } from '../calls/calls.controller';
import { GatewayConfig } from '../config/gateway.config';
import { ConsoleSessionRoute, CurrentConsoleSession } from '../console/console-auth';
import { ConsoleSession, ConsoleSessionsService } from '../console/console-sessions.service';
import { cookieValue, SESSION_COOKIE } from '../console/console-tokens';
import { ApiErrors } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';
import { LiveViewEvents } from './live-view-events';
import { LiveViewSlots } from './live-view-slots';
import { LiveViewSource, LiveViewStream } from './live-view-stream';

/** A `: keepalive` comment this often: well under the idle timeouts of common proxies (60 s). */
export const KEEPALIVE_MS = 15_000;
/** A live view re-checks its console session this often (signed out, removed, suspended: it closes). */
export const SESSION_CHECK_MS = 60_000;

const CALL_ENDED: ReadonlySet<CallStatus> = new Set(['completed', 'failed', 'no_answer', 'busy', 'canceled']);
const SESSION_ENDED: ReadonlySet<BrowserSessionStatus> = new Set(['completed', 'expired', 'failed']);

const STREAM_DESCRIPTION = (what: string, route: string) => `
Server-sent events (\`text/event-stream\`) following ${what} for the console, instead of polling:

- \`event: snapshot\`, \`data:\` the same JSON object \`GET /api/v2/${route}/{id}\` answers in \`data\`: at once, then
  every time it changes (on the platform's events, and a re-check every CONSOLE_LIVE_RECHECK_MS);
- \`: keepalive\` comments every 15 seconds;
- once it has ended and \`session.processing_complete\` is true: \`event: end\`, \`data: {"reason":"ended"}\`
  (\`"not_found"\` when it is no longer the account's), and the stream closes.

The stream also closes without \`end\` after CONSOLE_LIVE_STREAM_MAX_SECONDS, or when the console session ends:
the browser's EventSource reconnects (after \`retry\`, 3 s). An unknown id, or another account's, is 404 before
any event; more than CONSOLE_LIVE_STREAMS_PER_SESSION open views of the session, or
CONSOLE_LIVE_STREAMS_PER_ACCOUNT of the account, is 429 LIMIT_REACHED. Opening one counts as one console request
(RATE_LIMIT_CONSOLE_*).
`;

const STREAM_RESPONSE = {
  status: 200,
  description: 'The event stream (snapshot, keepalive, end)',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

/**
 * The console's live views: a call or browser session pushed to the page as it changes (server-sent events),
 * so the page does not poll. Authenticated by the console session like every console route; each view is
 * bounded (LiveViewSlots, a maximum lifetime) and lets go of everything when its client disconnects.
 */
@ConsoleSessionRoute()
@ApiTags('console')
@ApiCookieAuth('console_session')
@Controller('console/api/live')
export class LiveViewsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
    private readonly sessions: ConsoleSessionsService,
    private readonly slots: LiveViewSlots,
    private readonly events: LiveViewEvents,
  ) {}

  @Get('calls/:id')
  @ApiOperation({ summary: 'Follow a call live', description: STREAM_DESCRIPTION('a call', 'calls') })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiResponse(STREAM_RESPONSE)
  @ApiErrors(
    ErrorCode.UNAUTHORIZED,
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.LIMIT_REACHED,
    ErrorCode.RATE_LIMITED,
  )
  async call(
    @CurrentConsoleSession() session: ConsoleSession,
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Call')) id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.follow(req, res, session, auth, id, {
      fetch: async () =>
        callUrls(
          this.config.PUBLIC_BASE_URL,
          await this.rpc.request(Subjects.calls.callGet, auth.partner, { id }),
        ),
      ended: (call: CallDto) => CALL_ENDED.has(call.status) && call.session.processing_complete,
    });
  }

  @Get('browser-sessions/:id')
  @ApiOperation({
    summary: 'Follow a browser session live',
    description: STREAM_DESCRIPTION('a browser voice session', 'browser-sessions'),
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiResponse(STREAM_RESPONSE)
  @ApiErrors(
    ErrorCode.UNAUTHORIZED,
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.LIMIT_REACHED,
    ErrorCode.RATE_LIMITED,
  )
  async browserSession(
    @CurrentConsoleSession() session: ConsoleSession,
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Browser session')) id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.follow(req, res, session, auth, id, {
      fetch: async () =>
        browserSessionUrls(
          this.config.PUBLIC_BASE_URL,
          await this.rpc.request(Subjects.calls.browserSessionGet, auth.partner, { id }),
        ),
      ended: (found: BrowserSessionDto) =>
        SESSION_ENDED.has(found.status) && found.session.processing_complete,
    });
  }

  /**
   * Takes a slot and reads the view before anything is sent, so a refusal (limit, unknown or another
   * account's id) is an ordinary error envelope; then answers the stream.
   */
  private async follow<T>(
    req: Request,
    res: Response,
    session: ConsoleSession,
    auth: AuthContext,
    id: string,
    view: { fetch: () => Promise<T>; ended: (view: T) => boolean },
  ): Promise<void> {
    const release = this.slots.acquire(session.tokenHash.toString('hex'), auth.partnerId);
    // Events that come while the first read is under way are remembered, and read again once the view runs.
    let missed = false;
    const early = this.events.watch(auth.partnerId, id, () => (missed = true));
    let first: T;
    try {
      first = await view.fetch();
    } catch (err) {
      early();
      release();
      throw err;
    }
    if (req.destroyed || res.writableEnded) {
      early();
      release();
      return;
    }
    const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
    const source: LiveViewSource<T> = {
      fetch: () => view.fetch().catch((err: unknown) => notFoundAsNull(err)),
      ended: view.ended,
      stillSignedIn: async () => {
        const now = token ? await this.sessions.load(token) : null;
        return !!now && now.user.id === session.user.id && now.partner.status === 'approved';
      },
    };
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // Never cached, and never buffered by a proxy (nginx reads X-Accel-Buffering): each event goes out at once.
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    req.socket.setNoDelay(true);
    const stream = new LiveViewStream<T>(
      {
        write: (chunk) => res.write(chunk),
        end: () => res.end(),
        get buffered() {
          return res.writableLength;
        },
      },
      source,
      {
        recheckMs: this.config.CONSOLE_LIVE_RECHECK_MS,
        keepaliveMs: KEEPALIVE_MS,
        maxLifetimeMs: this.config.CONSOLE_LIVE_STREAM_MAX_SECONDS * 1000,
        sessionCheckMs: SESSION_CHECK_MS,
      },
      release,
    );
    // The client went away (or the response ended): everything the view holds is let go.
    res.on('close', () => stream.close());
    stream.start(first, (onChange) => {
      const unwatch = this.events.watch(auth.partnerId, id, onChange);
      if (missed) onChange();
      return unwatch;
    });
    early();
  }
}

/** A view that is no longer the account's reads as gone; any other failure is the caller's to report. */
function notFoundAsNull(err: unknown): null {
  if (err instanceof AppError && err.code === ErrorCode.NOT_FOUND) return null;
  throw err;
}
