import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  BrowserSessionDto,
  BrowserSessionListDto,
  CreateBrowserSessionDto,
  CreatedBrowserSessionDto,
  ListBrowserSessionsQueryDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';
import { onPublicBase } from '../http/public-url';
import { GatewayConfig } from '../config/gateway.config';
import { CustomersService } from '../customers/customers.service';

const CREATE_DESCRIPTION = `
Opens a voice session between an agent and a user in a browser: no phone line, no carrier. The answer's
\`connect_url\` is the WebSocket the page opens (with the platform's web client,
\`VoiceClient.connect({ url: connect_url })\`); its \`access_token\` is shown here once and never again.

**Origins.** Only a page whose \`Origin\` is one of \`allowed_origins\` may connect (each \`scheme://host[:port]\`
exactly as the browser sends it; https, or http for localhost, 127.0.0.1 and [::1]); another origin is refused.
A refused connection is closed with a code and its cause, which the page's client reports (4403
origin_not_allowed, 4401 token_expired or token_used, ...), and the session keeps the last one as
\`last_refusal\`.

**Expiry.** The token opens one connection, once, until \`expires_at\` (60 seconds after create by default): a
session still \`pending\` then becomes \`expired\` and costs nothing.

**Billing.** Connected time is billed per second at the call rate, INR 4.00 per minute (the calls service's
CALL_PRICE_PER_MINUTE_PAISE), one charge per session whatever ends it; creating needs a balance of at least
30 seconds (INR 2.00), else 403 FORBIDDEN (a suspended account is 403 too).

**Concurrency.** A session counts against the account's concurrency limit, as a call does, from create
(pending) until it ends; one more than the limit is 429 LIMIT_REACHED.

When the session ends, \`session.completed\` is sent with \`source: "browser"\` and \`browser_session_id\`;
no \`call.status.updated\` is sent for a session, and \`GET /calls\` does not list sessions.
`;

/** Browser voice sessions: thin HTTP edge of the calls service, which owns them. */
@ApiTags('Browser sessions')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/browser-sessions`)
export class BrowserSessionsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
    private readonly customers: CustomersService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a browser voice session', description: CREATE_DESCRIPTION })
  @ApiEnvelope(CreatedBrowserSessionDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.INVALID_STATE,
    ErrorCode.LIMIT_REACHED,
  )
  async create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateBrowserSessionDto,
  ): Promise<CreatedBrowserSessionDto> {
    await this.customers.assertActive(auth.partnerId, body.customer_id);
    const created = await this.rpc.request(Subjects.calls.browserSessionCreate, auth.partner, body);
    return absoluteUrls(this.config.PUBLIC_BASE_URL, created);
  }

  @Get()
  @ApiOperation({
    summary: 'List browser sessions, newest first',
    description:
      'Cursor pagination; filters agent_id, status, created_after, created_before. No access tokens.',
  })
  @ApiEnvelope(BrowserSessionListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  async list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListBrowserSessionsQueryDto,
  ): Promise<BrowserSessionListDto> {
    const page = await this.rpc.request(Subjects.calls.browserSessionList, auth.partner, query);
    return {
      ...page,
      browser_sessions: page.browser_sessions.map((s) => absoluteUrls(this.config.PUBLIC_BASE_URL, s)),
    };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get a browser session with its session (transcript, recording, extraction)',
    description: "Another account's session is 404. The access token is never shown again.",
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(BrowserSessionDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Browser session')) id: string,
  ): Promise<BrowserSessionDto> {
    return absoluteUrls(
      this.config.PUBLIC_BASE_URL,
      await this.rpc.request(Subjects.calls.browserSessionGet, auth.partner, { id }),
    );
  }
}

/** Recording URLs of the local blob driver are relative to the gateway: made absolute on the public base. */
export function absoluteUrls<T extends BrowserSessionDto>(publicBaseUrl: string, found: T): T {
  if (!found.session.recording_url) return found;
  return {
    ...found,
    session: { ...found.session, recording_url: onPublicBase(publicBaseUrl, found.session.recording_url) },
  };
}
