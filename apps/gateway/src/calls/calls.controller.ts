import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  CallDto,
  CallListDto,
  ListCallsQueryDto,
  RecordingUrlDto,
  StartCallCommand,
  StartCallDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { onPublicBase } from '../http/public-url';
import { GatewayConfig } from '../config/gateway.config';
import { CustomersService } from '../customers/customers.service';
import { idParam } from '../http/id-param';
import { IdempotencyKey, REPLAYED_HEADER } from '../idempotency/idempotency-key';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';

const START_DESCRIPTION = `
Places an outbound call from the agent to \`to_number\`. The caller ID is \`from_number\` or
\`phone_number_id\` (one of the account's numbers), else the account's default from-number: every
account starts with a \`sandbox\` carrier connection and a default sandbox number.

**Billing.** Answered time is billed per second at INR 4.00 per minute (the calls service's
CALL_PRICE_PER_MINUTE_PAISE, default 400 paise); starting needs a balance of at least one 30-second
call (INR 2.00), else 403 FORBIDDEN. The charge (session.credits_used) is debited when the session completes.

**Concurrency.** At most the account's concurrency limit (default 5) of calls may be active (pending,
ringing or in_progress) at once; one more is 429 LIMIT_REACHED. A slot frees when a call reaches a
terminal status (call.status.updated with concurrency_released true).

**Contact policy.** Checked before anything is dialled (GET /contact-policy/decisions logs every refusal):
a number on the do-not-call list (or under a listed prefix) is 409 DO_NOT_CALL; when the account's
\`windows_apply_to_single_calls\` is set (PATCH /contact-policy/settings), a callee whose local time is outside
the calling window is 409 OUTSIDE_CALLING_WINDOW; a number that already had the account's
\`max_attempts_per_day\` or \`max_attempts_per_7_days\` calls is 429 FREQUENCY_CAP_REACHED. The last two carry
\`error.retry_at\` and \`Retry-After\`: when the window opens or the cap allows a call.

**Idempotency.** Send \`Idempotency-Key\` to make a retry safe: the same key with the same body returns
the same call (response header \`Idempotency-Replayed: true\`), never a second call, even when the first
attempt ended in a timeout (502) or the connection dropped while the call was being dialled; the same key
with a different body is 409 CONFLICT. The key belongs to the call once the call is admitted, for 24 hours:
a request refused before that (validation, balance, concurrency limit) can be retried with the same key,
while a call the carrier could not place is answered again as that failed call (use a new key to dial again).

**Sandbox outcomes** by the last two digits of \`to_number\`: 01 no_answer, 02 busy, 03 failed,
04 voicemail (answered by a machine), 05 the callee hangs up without speaking, 06 the callee puts the call
on hold for 20 s (carrier hold events, see session.hold), 07 the callee talks until max_call_duration_secs
ends the call (end_call_reason max_call_duration_reached), 08 the callee asks for a human (cold transfer
to the agent's transfer_number when transfer_enabled: call.transferred, disposition transferred), anything
else a short scripted conversation (intro message, callee turns, agent replies using the agent's prompt and
knowledge base). Sandbox time is compressed: durations are simulated call time.
`;

/** Thin HTTP edge of the calls service: validates, then sends the command over NATS for the partner. */
@ApiTags('Calls')
@ApiPartnerRoute()
@RateLimitBucket('calls')
@Controller(`${API_PREFIX}/calls`)
export class CallsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
    private readonly customers: CustomersService,
  ) {}

  @Post('start')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start an outbound call', description: START_DESCRIPTION })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1..255 printable ASCII characters' })
  @ApiEnvelope(CallDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    ErrorCode.INVALID_STATE,
    ErrorCode.CALLER_ID_INACTIVE,
    ErrorCode.DO_NOT_CALL,
    ErrorCode.OUTSIDE_CALLING_WINDOW,
    ErrorCode.LIMIT_REACHED,
    ErrorCode.FREQUENCY_CAP_REACHED,
  )
  async start(
    @CurrentPartner() auth: AuthContext,
    @Body() body: StartCallDto,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CallDto> {
    await this.customers.assertActive(auth.partnerId, body.customer_id);
    const command: StartCallCommand = idempotencyKey ? { ...body, idempotency_key: idempotencyKey } : body;
    const { call, replayed } = await this.rpc.request(Subjects.calls.callStart, auth.partner, command);
    if (replayed) res.setHeader(REPLAYED_HEADER, 'true');
    return absoluteUrls(this.config.PUBLIC_BASE_URL, call);
  }

  @Get()
  @ApiOperation({
    summary: 'List calls, newest first',
    description:
      'Cursor pagination; filters agent_id, status, direction, client_reference_id, created_after, created_before.',
  })
  @ApiEnvelope(CallListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  async list(@CurrentPartner() auth: AuthContext, @Query() query: ListCallsQueryDto): Promise<CallListDto> {
    const page = await this.rpc.request(Subjects.calls.callList, auth.partner, query);
    return { ...page, calls: page.calls.map((c) => absoluteUrls(this.config.PUBLIC_BASE_URL, c)) };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get a call with its session',
    description:
      'session: transcript, credits_used, recording_url (only when recording was enabled; valid 7 days), ' +
      'variables, extraction, hold. processing_complete turns true when post-call processing finished.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(CallDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async get(@CurrentPartner() auth: AuthContext, @Param('id', idParam('Call')) id: string): Promise<CallDto> {
    return absoluteUrls(
      this.config.PUBLIC_BASE_URL,
      await this.rpc.request(Subjects.calls.callGet, auth.partner, { id }),
    );
  }

  @Get(':id/recording-url')
  @ApiOperation({
    summary: 'A fresh signed download URL of the call recording (WAV), valid 7 days',
    description: '404 NOT_FOUND when recording was disabled for the call or nothing was recorded.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(RecordingUrlDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async recordingUrl(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Call')) id: string,
  ): Promise<RecordingUrlDto> {
    const found = await this.rpc.request(Subjects.calls.callRecordingUrl, auth.partner, {
      id,
    });
    return { ...found, recording_url: onPublicBase(this.config.PUBLIC_BASE_URL, found.recording_url) };
  }
}

/** Recording URLs of the local blob driver are relative to the gateway: made absolute on the public base. */
export function absoluteUrls(publicBaseUrl: string, call: CallDto): CallDto {
  if (!call.session.recording_url) return call;
  return {
    ...call,
    session: { ...call.session, recording_url: onPublicBase(publicBaseUrl, call.session.recording_url) },
  };
}
