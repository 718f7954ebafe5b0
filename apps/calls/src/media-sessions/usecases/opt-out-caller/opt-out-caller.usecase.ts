import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { E164_PATTERN } from '@vap/api';
import { AppError, VoiceOptOutReply, VoiceOptOutRequest } from '@vap/messages';
import { DoNotCallService } from '../../../telephony/contact-policy/do-not-call.service';
import { findVoiceCall } from '../../voice-calls';

/**
 * The agent's opt_out tool: the person on the other end (the callee of an outbound call, the caller of an
 * inbound one) asked not to be called again, so their number joins the account's do-not-call list at once.
 */
@Injectable()
export class OptOutCaller {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly doNotCall: DoNotCallService,
  ) {}

  async execute(request: VoiceOptOutRequest, partnerId: string | null): Promise<VoiceOptOutReply> {
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    const number = call.direction === 'inbound' ? call.fromNumber : call.toNumber;
    // A withheld or SIP caller ID is nothing a dial could reach: there is no number to list.
    if (!E164_PATTERN.test(number)) {
      throw AppError.validation([{ field: 'callId', message: `the call's number (${number}) is not E.164` }]);
    }
    return { number, doNotCallId: await this.doNotCall.optOut(call.partnerId, number, call.id) };
  }
}
