import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreatedPublishableKeyDto,
  CreatePublishableKeyDto,
  MAX_ACTIVE_PUBLISHABLE_KEYS,
  PublishableKeyDto,
  PublishableKeyListDto,
} from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { assertOwnAgent, RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { assertConsoleRoleMay, ConsoleRequest, ROLE_MAY } from '../console/console-auth';
import { API_PREFIX } from '../http/api-docs';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { PublishableKeysService, toPublishableKeyDto } from './publishable-keys.service';

const CREATE_DESCRIPTION = `
A publishable key (\`pk_live_...\`) is public: it goes in your web page, in the one-tag widget
(a script tag loading \`{gateway}/sdk/widget.js\` with \`data-agent-id\` and \`data-public-key\`; see docs/web-client.md) or
in \`POST /web/sessions\` from your own page script. It may do one thing only: create a browser session with
one of the agents it names (\`agent_ids\`), from a page on one of the origins it lists (\`allowed_origins\`,
exactly as the browser sends \`Origin\`). Every other route answers it 401.

What stops abuse: the origin check (a browser always sends the page's real origin; the session's WebSocket
then opens from that origin only), the per-key and per-origin limits of sessions a minute and of sessions
pending or live at once (429 RATE_LIMITED with Retry-After), the account's own balance, status and
concurrency checks as for any session, and revocation, which takes effect on the next request.

An account holds at most ${MAX_ACTIVE_PUBLISHABLE_KEYS} active publishable keys (one more is 429 LIMIT_REACHED).
Every agent named must be one of the account's agents (else 404 NOT_FOUND). A scoped API key needs
\`calls:write\` to create or revoke publishable keys (they make browser sessions); in the console, an owner or
admin.
`;

/** Publishable keys of the account: made, listed and revoked with the account's secret key or the console. */
@ApiTags('Publishable keys')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/publishable-keys`)
export class PublishableKeysController {
  constructor(
    private readonly keys: PublishableKeysService,
    private readonly rpc: RpcClient,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a publishable key for web pages', description: CREATE_DESCRIPTION })
  @ApiEnvelope(CreatedPublishableKeyDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.LIMIT_REACHED)
  async create(
    @CurrentPartner() auth: AuthContext,
    @Req() req: ConsoleRequest,
    @Body() body: CreatePublishableKeyDto,
  ): Promise<CreatedPublishableKeyDto> {
    assertConsoleRoleMay(req, ROLE_MAY.manageKeys, 'create publishable keys');
    // Each agent must be the account's own: the agents service answers 404 for any other.
    for (const agentId of new Set(body.agent_ids.map((a) => a.toLowerCase()))) {
      await assertOwnAgent(this.rpc, auth.partnerId, agentId);
    }
    const user = req.consoleSession?.user;
    const { key, row } = await this.keys.issue(
      auth.partnerId,
      body,
      user ? { via: 'console', userId: user.id } : { via: 'api' },
    );
    return { ...toPublishableKeyDto(row), public_key: key };
  }

  @Get()
  @ApiOperation({ summary: 'The account’s active publishable keys, oldest first' })
  @ApiEnvelope(PublishableKeyListDto)
  @ApiErrors(ErrorCode.FORBIDDEN)
  async list(@CurrentPartner() auth: AuthContext): Promise<PublishableKeyListDto> {
    return { publishable_keys: (await this.keys.list(auth.partnerId)).map(toPublishableKeyDto) };
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Revoke a publishable key',
    description:
      'The next session asked for with it is refused (401), on every gateway at once. Sessions it already made run on.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(PublishableKeyDto)
  @ApiErrors(ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND)
  async revoke(
    @CurrentPartner() auth: AuthContext,
    @Req() req: ConsoleRequest,
    @Param('id', idParam('Publishable key')) id: string,
  ): Promise<PublishableKeyDto> {
    assertConsoleRoleMay(req, ROLE_MAY.manageKeys, 'revoke publishable keys');
    const row = await this.keys.revoke(auth.partnerId, id);
    if (!row) throw AppError.notFound('Publishable key');
    return toPublishableKeyDto(row);
  }
}
