import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { E164_PATTERN } from '@vap/api';
import {
  AgentDefaults,
  AppError,
  TRANSFER_BRIEFING_MAX,
  VoiceWarmTransferReply,
  VoiceWarmTransferRequest,
} from '@vap/messages';
import { isTerminalStatus } from '../../../calls/call-status-machine';
import { CallTransports } from '../../../carriers/call-transport';
import { TransferLegs } from '../../../carriers/transfer-legs/transfer-legs.service';
import { findVoiceCall } from '../../voice-calls';
import { checkTransferTarget } from '../transfer-call/transfer-call.usecase';

/**
 * calls.voice.warm_transfer: the agent transfers warm (transfer_mode warm or warm_handback). Only to the agent's
 * transfer_number and never to a listed number, as a cold transfer; then the human's leg is dialed (TransferLegs)
 * and the caller's session waits, on hold, for voice.session.transfer_outcome. `started` false: the call has
 * ended, its carrier has no legs to bridge (a browser session), a transfer is under way already, or the carrier
 * refused the leg; the agent then tells the caller.
 */
@Injectable()
export class WarmTransfer {
  private readonly logger = new Logger(WarmTransfer.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transports: CallTransports,
    private readonly legs: TransferLegs,
  ) {}

  async execute(
    request: VoiceWarmTransferRequest,
    partnerId: string | null,
  ): Promise<VoiceWarmTransferReply> {
    if (typeof request.to !== 'string' || !E164_PATTERN.test(request.to)) {
      throw AppError.validation([{ field: 'to', message: 'a transfer needs a number in E.164' }]);
    }
    const briefing = typeof request.briefing === 'string' ? request.briefing.trim() : '';
    if (!briefing || briefing.length > TRANSFER_BRIEFING_MAX) {
      throw AppError.validation([
        {
          field: 'briefing',
          message: `a warm transfer needs a briefing of 1..${TRANSFER_BRIEFING_MAX} characters`,
        },
      ]);
    }
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    await checkTransferTarget(this.dataSource, call, request.to, this.logger);
    const settings = call.agentSettings.transfer;
    if (!settings || settings.mode === 'cold') {
      throw AppError.validation([
        { field: 'to', message: "the call's agent transfers cold (transfer_mode)" },
      ]);
    }
    if (isTerminalStatus(call.status) || this.transports.directOf(call.provider)) return { started: false };
    if (!this.legs.supports(call.provider)) return { started: false };
    const reason = typeof request.reason === 'string' && request.reason ? request.reason : 'agent_transfer';
    const started = await this.legs.start(call.id, {
      to: request.to,
      reason: reason.slice(0, 200),
      briefing,
      ringTimeoutSecs: settings.ringTimeoutSecs ?? AgentDefaults.transferRingTimeoutSecs,
    });
    return { started };
  }
}
