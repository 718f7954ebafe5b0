import { Body, Controller, HttpCode, Options, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CreateWebSessionDto, WebSessionDto } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { Public } from '@vap/runtime';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiServerFailures } from '../http/openapi.decorators';
import { AddressRateLimiter } from '../rate-limit/address-rate-limit';
import { PublishableKeyRefusal, PublishableKeysService } from './publishable-keys.service';

const DESCRIPTION = `
Creates a browser voice session from a web page with a **publishable key** (\`Authorization: Bearer pk_live_...\`),
no server of yours needed: the one-tag widget (\`/sdk/widget.js\`) calls it. The answer's \`connect_url\` is the
WebSocket the page opens with the web client; it opens from the calling origin only, once, until \`expires_at\`.

Refused: a malformed, unknown or revoked key, or a secret key, 401 UNAUTHORIZED; a request whose \`Origin\` the
key does not list, or an agent it does not name, 403 FORBIDDEN (these refusals count against the caller's
address, 429 RATE_LIMITED over its limit); over the key's sessions a minute (all origins, or the calling
origin) or sessions pending or live at once (all origins, or the calling origin), 429 RATE_LIMITED with
Retry-After. The account's checks are those of \`POST /browser-sessions\`: a balance under 30 seconds of talk
or a suspended account 403 FORBIDDEN, its concurrency limit 429 LIMIT_REACHED, a deleted agent 404.

CORS: the answer (and the preflight, \`OPTIONS\`) allows only an origin some active publishable key lists.
Connected time is billed to the key's account as for any browser session; the session's metadata names the
key's prefix and the origin.
`;

/** The one public route of publishable keys: a page creates its own browser session. */
@Public()
@ApiTags('Browser sessions')
@Controller(`${API_PREFIX}/web/sessions`)
export class WebSessionsController {
  constructor(
    private readonly keys: PublishableKeysService,
    private readonly addressLimits: AddressRateLimiter,
  ) {}

  @Options()
  @HttpCode(204)
  @ApiOperation({
    summary: 'CORS preflight of POST /web/sessions',
    description:
      'Answers 204 with Access-Control-Allow-Origin for an origin some active publishable key lists, else 403 (counted against the caller’s address).',
    // A browser's preflight carries no credentials.
    security: [],
  })
  @ApiResponse({ status: 204, description: 'The origin may send POST /web/sessions' })
  @ApiErrors(ErrorCode.FORBIDDEN, ErrorCode.RATE_LIMITED)
  @ApiServerFailures()
  async preflight(@Req() req: Request, @Res() res: Response): Promise<void> {
    const origin = req.headers.origin;
    if (origin && (await this.keys.originListed(origin))) {
      allowOrigin(res, origin);
      res.setHeader('Access-Control-Allow-Methods', 'POST');
      res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    await this.addressLimits.enforce(req, res, 'invalid_key');
    throw new AppError(ErrorCode.FORBIDDEN, 'No publishable key lists this origin');
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a browser session with a publishable key', description: DESCRIPTION })
  @ApiBearerAuth('publishable_key')
  @ApiHeader({ name: 'Origin', required: true, description: 'Sent by the browser: one the key lists' })
  @ApiEnvelope(WebSessionDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.UNAUTHORIZED,
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.RATE_LIMITED,
    ErrorCode.LIMIT_REACHED,
  )
  @ApiServerFailures()
  async create(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() body: CreateWebSessionDto,
  ): Promise<WebSessionDto> {
    const origin = req.headers.origin;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    try {
      if (!match) {
        throw new PublishableKeyRefusal(
          ErrorCode.UNAUTHORIZED,
          'Missing publishable key: send Authorization: Bearer pk_live_...',
        );
      }
      const key = await this.keys.authorize(match[1], origin, body.agent_id);
      // From here the origin is the key's: the page may read the answer, refusals included.
      allowOrigin(res, origin!);
      return await this.keys.createSession(key, origin!, body);
    } catch (err) {
      if (err instanceof PublishableKeyRefusal) await this.addressLimits.enforce(req, res, 'invalid_key');
      throw err;
    }
  }
}

function allowOrigin(res: Response, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
}
