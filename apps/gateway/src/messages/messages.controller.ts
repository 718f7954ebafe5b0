import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ListMessagesQueryDto,
  MESSAGE_BODY_MAX_CHARS,
  MESSAGE_ID_EXAMPLE,
  MessageDto,
  MessageListDto,
  SandboxInboundMessageDto,
  SendMessageDto,
  SmsPolicyDto,
  UpdateSmsPolicyDto,
} from '@vap/api';
import { ErrorCode, MessageId, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { assertConsoleRoleMay, ROLE_MAY } from '../console/console-auth';
import { API_PREFIX } from '../http/api-docs';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

const ID_PARAM = { name: 'id', example: MESSAGE_ID_EXAMPLE };

const SEND_DESCRIPTION = `Queues an SMS (body up to ${MESSAGE_BODY_MAX_CHARS} characters) on one of the account's carrier
connections and answers 202 with the message, \`queued\`. The platform hands it to the carrier at once; its status then moves
to \`sent\` (the carrier took it) and \`delivered\`, \`undelivered\` or \`failed\` as the carrier reports, each change a
\`message.status.updated\` webhook event. A carrier that refuses it, or cannot be reached, fails it with \`error_code\` and
\`error_message\`.

The sender: \`from\`, a number of the account (GET /phone-numbers), on its connection; else \`carrier\`'s connection and its
from_number; else the account's default number (the sandbox's unless another was made default). On the sandbox a message is
delivered at once (to a number ending in 13: undelivered, error 30003), so its history shows it delivered.

The contact policy applies as to a single call: a number on the do-not-call list is refused with 409 \`DO_NOT_CALL\`, one whose
local time is outside the calling window (when windows apply to single calls) with 409 \`OUTSIDE_CALLING_WINDOW\`, and one that
reached a frequency cap (the number's messages counted, apart from its calls) with 429 \`FREQUENCY_CAP_REACHED\`; nothing is
sent, and the refusal is in GET /contact-policy/decisions (source \`message\`).

Before that, the account's SMS policy (GET /messages/policy): a premium-rate or satellite number (+1 900, +1 976, +870,
+881, +882, +883, +979) is refused with 403 \`SMS_DESTINATION_BLOCKED\`, as is a number in a range flagged for SMS fraud
(+53, +232, +372 59, +676, +220, +961) unless the account listed its country in \`allowed_countries\` itself; a number of a
country the account does not text with 403 \`SMS_COUNTRY_NOT_ALLOWED\` (by default it texts the countries of its own
numbers and the platform's list); and a message past the account's \`max_per_day\` (any 24 hours) with 429
\`SMS_LIMIT_REACHED\`, \`retry_at\` saying when one more may go. Nothing is sent or stored.`;

const POLICY_DESCRIPTION = `Where and how much the account texts, POST /messages and agents' send_sms alike. \`allowed_countries\`:
the countries (ISO 3166-1 alpha-2) it may text; null means the default, \`default_allowed_countries\` (the countries of the
account's phone numbers and the platform's list). Premium-rate and satellite ranges (\`blocked_prefixes\`) are refused
always; ranges flagged for SMS fraud (\`high_risk_prefixes\`) only when their country is in the account's own
\`allowed_countries\`. \`max_per_day\` bounds the account's outbound messages in any 24 hours, \`max_per_call\` an agent's
messages in one call; each at most the platform's limit.`;

/** SMS of the account: send, history, and the sandbox's simulated inbound SMS. */
@ApiTags('Messaging')
@ApiPartnerRoute()
@Controller(API_PREFIX)
export class MessagesController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('messages')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send an SMS (queued)', description: SEND_DESCRIPTION })
  @ApiEnvelope(MessageDto, 'Queued', 202)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.CALLER_ID_INACTIVE,
    ErrorCode.DO_NOT_CALL,
    ErrorCode.OUTSIDE_CALLING_WINDOW,
    ErrorCode.FREQUENCY_CAP_REACHED,
    ErrorCode.LIMIT_REACHED,
    // The 403 documented here replaces the partner route's, so it names FORBIDDEN again.
    ErrorCode.FORBIDDEN,
    ErrorCode.SMS_DESTINATION_BLOCKED,
    ErrorCode.SMS_COUNTRY_NOT_ALLOWED,
    ErrorCode.SMS_LIMIT_REACHED,
  )
  send(@CurrentPartner() auth: AuthContext, @Body() body: SendMessageDto): Promise<MessageDto> {
    return this.rpc.request(Subjects.calls.messageSend, auth.partner, body);
  }

  // Before messages/:id, which would take `policy` for an id.
  @Get('messages/policy')
  @ApiOperation({
    summary: "Read the account's SMS destination policy and caps",
    description: POLICY_DESCRIPTION,
  })
  @ApiEnvelope(SmsPolicyDto)
  getPolicy(@CurrentPartner() auth: AuthContext): Promise<SmsPolicyDto> {
    return this.rpc.request(Subjects.calls.messagePolicyGet, auth.partner, {});
  }

  @Patch('messages/policy')
  @ApiOperation({
    summary: "Change the account's SMS destination policy and caps",
    description: `${POLICY_DESCRIPTION}\n\nFields left out keep their value; null restores the default. A country code the platform does not know, or a cap above its limit, is 400 \`VALIDATION_ERROR\`. Through the console, owners and admins only.`,
  })
  @ApiEnvelope(SmsPolicyDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.FORBIDDEN)
  updatePolicy(
    @CurrentPartner() auth: AuthContext,
    @Req() req: Request,
    @Body() body: UpdateSmsPolicyDto,
  ): Promise<SmsPolicyDto> {
    // Through the console, by the roles that manage the account (owners and admins).
    assertConsoleRoleMay(req, ROLE_MAY.manageTeam, 'change the SMS policy');
    return this.rpc.request(Subjects.calls.messagePolicyUpdate, auth.partner, body);
  }

  @Get('messages')
  @ApiOperation({
    summary: 'List messages, newest first (cursor pagination; filter by to, from, direction, status)',
  })
  @ApiEnvelope(MessageListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(@CurrentPartner() auth: AuthContext, @Query() query: ListMessagesQueryDto): Promise<MessageListDto> {
    return this.rpc.request(Subjects.calls.messageList, auth.partner, query);
  }

  @Get('messages/:id')
  @ApiOperation({ summary: 'Get a message' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(MessageDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Message', MessageId)) id: string,
  ): Promise<MessageDto> {
    return this.rpc.request(Subjects.calls.messageGet, auth.partner, { id });
  }

  @Post('sandbox/inbound-messages')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Simulate an inbound SMS to one of your numbers',
    description:
      'The sandbox carrier delivers an SMS to the number exactly as a carrier would (its signed inbound-SMS webhook); ' +
      'the message is recorded (direction inbound, status received) and a `message.received` webhook event goes out. ' +
      'Answers the recorded message. A number that is not the account’s is 404.',
  })
  @ApiEnvelope(MessageDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  simulateInbound(
    @CurrentPartner() auth: AuthContext,
    @Body() body: SandboxInboundMessageDto,
  ): Promise<MessageDto> {
    return this.rpc.request(Subjects.calls.sandboxInboundMessage, auth.partner, body);
  }
}
