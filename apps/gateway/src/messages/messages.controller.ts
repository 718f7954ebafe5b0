import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ListMessagesQueryDto,
  MESSAGE_BODY_MAX_CHARS,
  MESSAGE_ID_EXAMPLE,
  MessageDto,
  MessageListDto,
  SandboxInboundMessageDto,
  SendMessageDto,
} from '@vap/api';
import { ErrorCode, MessageId, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
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
sent, and the refusal is in GET /contact-policy/decisions (source \`message\`).`;

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
  )
  send(@CurrentPartner() auth: AuthContext, @Body() body: SendMessageDto): Promise<MessageDto> {
    return this.rpc.request(Subjects.calls.messageSend, auth.partner, body);
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
