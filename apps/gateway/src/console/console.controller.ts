import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { isUUID } from 'class-validator';
import {
  ConsoleAccountChoiceDto,
  ConsoleKeyDto,
  ConsoleKeyListDto,
  ConsoleLinkInfoDto,
  ConsoleInvitationDto,
  ConsoleSessionDto,
  ConsoleSetPasswordDto,
  ConsoleSignInDto,
  ConsoleScopeListDto,
  ConsoleSignedOutDto,
  ConsoleUserDto,
  ConsoleUserListDto,
  CreateConsoleKeyDto,
  CreatedConsoleKeyDto,
  InviteConsoleUserDto,
  UpdateConsoleUserDto,
  MAX_ACTIVE_API_KEYS,
} from '@vap/api';
import {
  AppError,
  ErrorCode,
  READ_ONLY_SCOPE,
  SCOPE_RESOURCE_DESCRIPTIONS,
  SCOPE_RESOURCES,
} from '@vap/messages';
import { Public } from '@vap/runtime';
import { ApiKeysService } from '../accounts/api-keys.service';
import { ApiKey } from '../accounts/entities/api-key.entity';
import { GatewayConfig } from '../config/gateway.config';
import { clientAddress } from '../http/client-address';
import { ApiEnvelope, ApiErrors } from '../http/openapi.decorators';
import {
  ConsoleAuth,
  ConsoleRequest,
  ConsoleSessionRoute,
  CurrentConsoleSession,
  ROLE_MAY,
} from './console-auth';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';
import { ConsoleOrigin, ConsoleSameOriginGuard } from './console-origin';
import { ConsoleSession, ConsoleSessionsService } from './console-sessions.service';
import { ConsoleUsersService, LinkKind, toConsoleUserDto, toInvitationDto } from './console-users.service';

const TOKEN_PARAM = { name: 'token', description: 'The one-time token of the link' };

export function toSessionDto(s: ConsoleSession): ConsoleSessionDto {
  return {
    user: toConsoleUserDto(s.user),
    account: { id: s.partner.id, name: s.partner.name, reseller: s.partner.reseller },
    csrf_token: s.csrfToken,
  };
}

/** A key as the console shows it; `userNames` names the account's users by id (for who made it). */
function toConsoleKeyDto(k: ApiKey, userNames: ReadonlyMap<string, string>): ConsoleKeyDto {
  const created_by: ConsoleKeyDto['created_by'] =
    k.createdVia === 'operator'
      ? { kind: 'operator', name: null }
      : k.createdVia === 'console'
        ? { kind: 'user', name: (k.createdByUserId && userNames.get(k.createdByUserId)) ?? null }
        : { kind: 'unknown', name: null };
  return {
    id: k.id,
    created_by,
    name: k.name,
    prefix: k.lookupPrefix,
    scopes: k.scopes,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

function refuse(message: string): never {
  throw new AppError(ErrorCode.FORBIDDEN, message);
}

/**
 * The console's own API (cookie sessions; docs/console.md): sign-in and out, one-time links, API keys and the
 * team. The public API's routes are served to the console under /console/api/v2 by the same controllers.
 */
@ConsoleSessionRoute()
@ApiTags('console')
@ApiCookieAuth('console_session')
// Every route is rate limited: per console session and account once signed in, per address before.
@ApiErrors(ErrorCode.RATE_LIMITED)
@Controller('console/api')
export class ConsoleController {
  constructor(
    private readonly auth: ConsoleAuth,
    private readonly sessions: ConsoleSessionsService,
    private readonly users: ConsoleUsersService,
    private readonly apiKeys: ApiKeysService,
    private readonly config: GatewayConfig,
    private readonly origin: ConsoleOrigin,
  ) {}

  @Public()
  @RateLimitBucket('console')
  @UseGuards(ConsoleSameOriginGuard)
  @Post('session')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in: sets the session cookie',
    description:
      'Repeated failures lock out the email from the address, and the address, for a growing time (429 ' +
      'RATE_LIMITED). A wrong email and a wrong password answer the same 401. A request from another origin ' +
      '(Origin, Sec-Fetch-Site) is 403. When the email and password are those of users of several accounts, ' +
      "the answer lists those accounts instead (no cookie): sign in again with one's account_id.",
  })
  @ApiExtraModels(ConsoleSessionDto, ConsoleAccountChoiceDto)
  @ApiResponse({
    status: 200,
    description: 'Signed in (the session), or the accounts to choose from',
    schema: {
      type: 'object',
      required: ['success', 'data'],
      properties: {
        success: { type: 'boolean', enum: [true] },
        data: {
          oneOf: [
            { $ref: getSchemaPath(ConsoleSessionDto) },
            { $ref: getSchemaPath(ConsoleAccountChoiceDto) },
          ],
        },
      },
    },
  })
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN, ErrorCode.RATE_LIMITED)
  async signIn(
    @Body() body: ConsoleSignInDto,
    @Req() req: ConsoleRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionDto | ConsoleAccountChoiceDto> {
    const signedIn = await this.sessions.signIn(
      body.email,
      body.password,
      clientAddress(req, this.config.TRUST_PROXY_HOPS),
      body.account_id,
    );
    if ('accounts' in signedIn) return { accounts: signedIn.accounts };
    this.auth.setCookie(res, signedIn.token);
    return toSessionDto(signedIn.session);
  }

  @Get('session')
  @ApiOperation({ summary: 'The signed-in user, their account and the CSRF token of the session' })
  @ApiEnvelope(ConsoleSessionDto)
  @ApiErrors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN)
  current(@CurrentConsoleSession() s: ConsoleSession): ConsoleSessionDto {
    return toSessionDto(s);
  }

  @Delete('session')
  @ApiOperation({ summary: 'Sign out: the session ends at once' })
  @ApiEnvelope(ConsoleSignedOutDto)
  @ApiErrors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN)
  async signOut(
    @CurrentConsoleSession() s: ConsoleSession,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSignedOutDto> {
    await this.sessions.revokeHash(s.tokenHash);
    this.auth.clearCookie(res);
    return { signed_out: true };
  }

  @Public()
  @RateLimitBucket('console')
  @Get('invitations/:token')
  @ApiOperation({ summary: 'Whom an invitation link is for; 404 when it no longer works' })
  @ApiParam(TOKEN_PARAM)
  @ApiEnvelope(ConsoleLinkInfoDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED)
  invitation(@Param('token') token: string): Promise<ConsoleLinkInfoDto> {
    return this.linkInfo(token, 'invitation');
  }

  @Public()
  @RateLimitBucket('console')
  @UseGuards(ConsoleSameOriginGuard)
  @Post('invitations/:token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept an invitation: set the password (the link works once) and sign in' })
  @ApiParam(TOKEN_PARAM)
  @ApiEnvelope(ConsoleSessionDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED)
  accept(
    @Param('token') token: string,
    @Body() body: ConsoleSetPasswordDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionDto> {
    return this.useLink(token, 'invitation', body.password, res);
  }

  @Public()
  @RateLimitBucket('console')
  @Get('password-resets/:token')
  @ApiOperation({ summary: 'Whom a password-reset link is for; 404 when it no longer works' })
  @ApiParam(TOKEN_PARAM)
  @ApiEnvelope(ConsoleLinkInfoDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED)
  passwordReset(@Param('token') token: string): Promise<ConsoleLinkInfoDto> {
    return this.linkInfo(token, 'password_reset');
  }

  @Public()
  @RateLimitBucket('console')
  @UseGuards(ConsoleSameOriginGuard)
  @Post('password-resets/:token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Choose a new password from a reset link (it works once): every other session of the user ends',
  })
  @ApiParam(TOKEN_PARAM)
  @ApiEnvelope(ConsoleSessionDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED)
  reset(
    @Param('token') token: string,
    @Body() body: ConsoleSetPasswordDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionDto> {
    return this.useLink(token, 'password_reset', body.password, res);
  }

  private async linkInfo(token: string, kind: LinkKind): Promise<ConsoleLinkInfoDto> {
    const found = await this.users.linkInfo(token, kind);
    if (!found) throw AppError.notFound('Link');
    return {
      email: found.user.email,
      name: found.user.name,
      role: found.user.role,
      account: { id: found.user.partner_id, name: found.accountName },
      expires_at: new Date(found.expiresAt).toISOString(),
    };
  }

  private async useLink(
    token: string,
    kind: LinkKind,
    password: string,
    res: Response,
  ): Promise<ConsoleSessionDto> {
    const user = await this.users.usePasswordLink(token, kind, password);
    if (!user) throw AppError.notFound('Link');
    const opened = await this.sessions.open(user.id);
    this.auth.setCookie(res, opened.token);
    return toSessionDto(opened.session);
  }

  @Get('keys/scopes')
  @ApiOperation({
    summary: 'The scopes a key may be limited to (write includes read; read_only: every read)',
  })
  @ApiEnvelope(ConsoleScopeListDto)
  @ApiErrors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN)
  scopes(): ConsoleScopeListDto {
    return {
      scopes: [
        ...SCOPE_RESOURCES.flatMap((r) => [
          { name: `${r}:read`, description: `Read: ${SCOPE_RESOURCE_DESCRIPTIONS[r]}` },
          { name: `${r}:write`, description: `Read and change: ${SCOPE_RESOURCE_DESCRIPTIONS[r]}` },
        ]),
        { name: READ_ONLY_SCOPE, description: 'Read everything, change nothing' },
      ],
    };
  }

  @Get('keys')
  @ApiOperation({ summary: "The account's API keys (never the keys themselves)" })
  @ApiEnvelope(ConsoleKeyListDto)
  @ApiErrors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN)
  async listKeys(@CurrentConsoleSession() s: ConsoleSession): Promise<ConsoleKeyListDto> {
    const [keys, names] = await Promise.all([this.apiKeys.list(s.partner.id), this.userNames(s.partner.id)]);
    return { keys: keys.filter((k) => !k.revokedAt).map((k) => toConsoleKeyDto(k, names)) };
  }

  @Post('keys')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an API key: shown only in this answer (owners and admins)',
    description: `An account holds at most ${MAX_ACTIVE_API_KEYS} active keys: one more is 429 LIMIT_REACHED (revoke one first).`,
  })
  @ApiEnvelope(CreatedConsoleKeyDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN, ErrorCode.LIMIT_REACHED)
  async createKey(
    @CurrentConsoleSession() s: ConsoleSession,
    @Body() body: CreateConsoleKeyDto,
  ): Promise<CreatedConsoleKeyDto> {
    if (!ROLE_MAY.manageKeys(s.user.role)) refuse(`The ${s.user.role} role cannot create API keys`);
    const issued = await this.apiKeys.issueNow(s.partner.id, body.name.trim(), body.scopes ?? null, {
      via: 'console',
      userId: s.user.id,
    });
    return { api_key: issued.key, key: toConsoleKeyDto(issued.record, new Map([[s.user.id, s.user.name]])) };
  }

  @Delete('keys/:id')
  @ApiOperation({
    summary: 'Revoke an API key: it stops working at once on every gateway (owners and admins)',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(ConsoleKeyDto)
  @ApiErrors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND)
  async revokeKey(
    @CurrentConsoleSession() s: ConsoleSession,
    @Param('id') id: string,
  ): Promise<ConsoleKeyDto> {
    if (!ROLE_MAY.manageKeys(s.user.role)) refuse(`The ${s.user.role} role cannot revoke API keys`);
    const key = isUUID(id) ? await this.apiKeys.revoke(s.partner.id, id) : null;
    if (!key) throw AppError.notFound('API key');
    return toConsoleKeyDto(key, await this.userNames(s.partner.id));
  }

  private async userNames(partnerId: string): Promise<Map<string, string>> {
    return new Map((await this.users.list(partnerId)).map((u) => [u.id, u.name]));
  }

  @Get('team/users')
  @ApiOperation({ summary: "The account's console users" })
  @ApiEnvelope(ConsoleUserListDto)
  @ApiErrors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN)
  async team(@CurrentConsoleSession() s: ConsoleSession): Promise<ConsoleUserListDto> {
    return { users: (await this.users.list(s.partner.id)).map(toConsoleUserDto) };
  }

  @Post('team/invitations')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Invite a user: answers a one-time link to pass on (owners and admins; only owners invite owners)',
  })
  @ApiEnvelope(ConsoleInvitationDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.UNAUTHORIZED,
    ErrorCode.FORBIDDEN,
    ErrorCode.CONFLICT,
    ErrorCode.LIMIT_REACHED,
  )
  async invite(
    @CurrentConsoleSession() s: ConsoleSession,
    @Body() body: InviteConsoleUserDto,
  ): Promise<ConsoleInvitationDto> {
    if (!ROLE_MAY.manageTeam(s.user.role)) refuse(`The ${s.user.role} role cannot invite users`);
    if (body.role === 'owner' && s.user.role !== 'owner') refuse('Only an owner can invite an owner');
    return toInvitationDto(this.origin, await this.users.invite(s.partner.id, body));
  }

  @Patch('team/users/:id')
  @ApiOperation({ summary: "Change a user's role (owners and admins; the last owner stays one)" })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(ConsoleUserDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.UNAUTHORIZED,
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.INVALID_STATE,
  )
  async changeRole(
    @CurrentConsoleSession() s: ConsoleSession,
    @Param('id') id: string,
    @Body() body: UpdateConsoleUserDto,
  ): Promise<ConsoleUserDto> {
    if (!ROLE_MAY.manageTeam(s.user.role)) refuse(`The ${s.user.role} role cannot change roles`);
    if (!isUUID(id)) throw AppError.notFound('User');
    return toConsoleUserDto(await this.users.changeRole(s.partner.id, s.user.role, id, body.role));
  }

  @Delete('team/users/:id')
  @ApiOperation({
    summary: 'Remove a user: their sessions end at once (owners and admins; not the last owner)',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(ConsoleUserDto)
  @ApiErrors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  async removeUser(
    @CurrentConsoleSession() s: ConsoleSession,
    @Param('id') id: string,
  ): Promise<ConsoleUserDto> {
    if (!ROLE_MAY.manageTeam(s.user.role)) refuse(`The ${s.user.role} role cannot remove users`);
    if (!isUUID(id)) throw AppError.notFound('User');
    return toConsoleUserDto(await this.users.remove(s.partner.id, s.user.role, id));
  }
}
