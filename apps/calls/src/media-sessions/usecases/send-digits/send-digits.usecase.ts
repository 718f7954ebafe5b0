import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  AppError,
  ErrorCode,
  SEND_DTMF_PATTERN,
  VoiceSendDtmfReply,
  VoiceSendDtmfRequest,
} from '@vap/messages';
import { isTerminalStatus } from '../../../calls/call-status-machine';
import { CallTransports } from '../../../carriers/call-transport';
import { carrierCallOf } from '../../../carriers/carrier-call';
import { findVoiceCall } from '../../voice-calls';

/**
 * calls.voice.send_dtmf: the agent's send_dtmf on a carrier that takes keys through its REST API. Only for an
 * agent that has the tool (the settings copied when the call started): whatever can send the command must not
 * press keys on other calls. A call that has ended, a browser session or a carrier without the request answer
 * false.
 */
@Injectable()
export class SendDigits {
  private readonly logger = new Logger(SendDigits.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transports: CallTransports,
  ) {}

  async execute(request: VoiceSendDtmfRequest, partnerId: string | null): Promise<VoiceSendDtmfReply> {
    if (typeof request.digits !== 'string' || !SEND_DTMF_PATTERN.test(request.digits)) {
      throw AppError.validation([
        { field: 'digits', message: 'digits must be 1 to 32 of 0-9, *, #, A-D and w' },
      ]);
    }
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    if (!call.agentSettings.sendDtmfEnabled) {
      throw new AppError(ErrorCode.FORBIDDEN, "The call's agent does not send keys");
    }
    if (isTerminalStatus(call.status)) return { sent: false };
    // A transport with no carrier has no leg to press keys on.
    if (this.transports.directOf(call.provider)) return { sent: false };
    const carrier = this.transports.carrierOf(call.provider);
    if (!carrier.sendDigits) return { sent: false };
    try {
      return { sent: await carrier.sendDigits(carrierCallOf(call), request.digits) };
    } catch (err) {
      this.logger.warn(`call ${call.id}: ${call.provider} refused the keys: ${(err as Error).message}`);
      return { sent: false };
    }
  }
}
