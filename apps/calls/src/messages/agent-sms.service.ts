import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { E164_PATTERN, MESSAGE_BODY_MAX_CHARS, MESSAGE_CARRIERS, MessageCarrier } from '@vap/api';
import { AppError, ErrorCode, VoiceSendSmsReply, VoiceSendSmsRequest } from '@vap/messages';
import { isTerminalStatus } from '../calls/call-status-machine';
import { findVoiceCall } from '../media-sessions/voice-calls';
import { MessagesService } from './messages.service';

const notSent = (reason: string): VoiceSendSmsReply => ({ sent: false, messageId: null, to: null, reason });

/**
 * calls.voice.send_sms: the agent's send_sms tool. Only for an agent that has it (the settings copied when the
 * call started), to the other party of the call unless the agent allows any number, from the call's own number
 * on its connection; then as POST /messages: the SMS policy (destinations, the daily cap, the account's
 * max_per_call, at most SEND_SMS_MAX_PER_CALL) and the contact policy. The caller's number of an inbound call
 * is whatever the caller presented, so it meets the same destination rules as any other. A refusal is
 * answered in words the model can pass on, not as an error.
 */
@Injectable()
export class AgentSms {
  private readonly logger = new Logger(AgentSms.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly messages: MessagesService,
  ) {}

  async execute(request: VoiceSendSmsRequest, partnerId: string | null): Promise<VoiceSendSmsReply> {
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    const agent = call.agentSettings;
    if (!agent.smsEnabled) throw new AppError(ErrorCode.FORBIDDEN, "The call's agent does not send messages");
    const body = typeof request.body === 'string' ? request.body.trim() : '';
    if (!body || body.length > MESSAGE_BODY_MAX_CHARS) {
      return notSent(`the message must be 1 to ${MESSAGE_BODY_MAX_CHARS} characters`);
    }
    if (isTerminalStatus(call.status)) return notSent('the call has ended');
    if (!(MESSAGE_CARRIERS as readonly string[]).includes(call.provider)) {
      return notSent('this conversation is not a phone call, so there is no number to text');
    }
    const other = call.direction === 'inbound' ? call.fromNumber : call.toNumber;
    const own = call.direction === 'inbound' ? call.toNumber : call.fromNumber;
    const to = typeof request.to === 'string' && request.to.trim() ? request.to.trim() : other;
    if (!E164_PATTERN.test(to))
      return notSent(`${to} is not a phone number in international form (+ and digits)`);
    if (to !== other && agent.smsAllowedRecipients !== 'any') {
      return notSent('messages may go only to the person on this call');
    }
    try {
      const message = await this.messages.send(
        call.partnerId,
        { to, body, from: own, carrier: call.provider as MessageCarrier },
        { callId: call.id, agentId: call.agentId },
      );
      return { sent: true, messageId: message.id, to, reason: null };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      this.logger.warn(`call ${call.id}: send_sms refused: ${err.code} ${err.message}`);
      return notSent(err.message);
    }
  }
}
