import { Injectable } from '@nestjs/common';
import { AppError, isUuid, VoiceTransferDecisionReply, VoiceTransferDecisionRequest } from '@vap/messages';
import { TransferLegs } from '../../../carriers/transfer-legs/transfer-legs.service';

/**
 * calls.voice.transfer_decision: how a warm transfer's consult ended on the media plane. From the consult stream
 * (`consultId`): the human accepted (both legs are bridged in the carrier's conference) or declined (their leg is
 * hung up). From the caller's session (`callId`, accepted false): the agent stopped waiting, and the transfer
 * still under way is withdrawn. Answers the transfer's outcome; one decided before stands.
 */
@Injectable()
export class DecideTransfer {
  constructor(private readonly legs: TransferLegs) {}

  async execute(
    request: VoiceTransferDecisionRequest,
    partnerId: string | null,
  ): Promise<VoiceTransferDecisionReply> {
    if (typeof request.accepted !== 'boolean') {
      throw AppError.validation([{ field: 'accepted', message: 'accepted must be true or false' }]);
    }
    if (isUuid(request.consultId)) {
      const call = await this.legs.byConsultId(request.consultId);
      if (!call || (partnerId && partnerId !== call.partnerId)) throw AppError.notFound('Transfer');
      return { outcome: await this.legs.decide(request.consultId, request.accepted) };
    }
    if (isUuid(request.callId) && !request.accepted) {
      const outcome = await this.legs.withdraw(request.callId, partnerId);
      return { outcome };
    }
    throw AppError.validation([
      { field: 'consultId', message: 'a decision names its consult stream, or the call it withdraws' },
    ]);
  }
}
