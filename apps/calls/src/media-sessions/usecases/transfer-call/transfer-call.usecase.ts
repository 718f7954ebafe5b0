import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { E164_PATTERN } from '@vap/api';
import { AppError, ErrorCode, VoiceTransferReply, VoiceTransferRequest } from '@vap/messages';
import { isTerminalStatus } from '../../../calls/call-status-machine';
import { Call } from '../../../calls/entities/call.entity';
import { CallTransports } from '../../../carriers/call-transport';
import { carrierCallOf } from '../../../carriers/carrier-call';
import { doNotCallMatches } from '../../../telephony/contact-policy/do-not-call.service';
import { findVoiceCall } from '../../voice-calls';
import { CallTransferService } from './call-transfer.service';

/** The end_call_reason CallTransferService gives a transferred call. */
const TRANSFERRED = 'transferred';

/**
 * calls.voice.transfer: the agent's transfer_call tool. A cold transfer to a human only the carrier can carry out,
 * through its REST API with the partner's credentials.
 */
@Injectable()
export class TransferCall {
  private readonly logger = new Logger(TransferCall.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transports: CallTransports,
    private readonly transfers: CallTransferService,
  ) {}

  /**
   * Asks the carrier to bridge the caller to `to`, the agent's transfer_number (see checkTarget), then records
   * the transfer (call.transferred through the outbox). The call's row stays locked from before the carrier is
   * asked until the transfer is recorded: the carrier may report the caller's leg ended as soon as it took the
   * call, and that report (which takes the same lock) must find the call transferred, not end it as a plain
   * completed call. The lock is held at most the carrier's HTTP timeout. A retry of a transfer that went
   * through answers true again and changes nothing; a call that has ended, or a carrier that refuses, answers
   * false (the conversation then carries on or says goodbye).
   */
  async execute(request: VoiceTransferRequest, partnerId: string | null): Promise<VoiceTransferReply> {
    if (typeof request.to !== 'string' || !E164_PATTERN.test(request.to)) {
      throw AppError.validation([{ field: 'to', message: 'a transfer needs a number in E.164' }]);
    }
    const found = await findVoiceCall(this.dataSource, request.callId, partnerId);
    await checkTransferTarget(this.dataSource, found, request.to, this.logger);
    // A transport with no carrier has no leg to bridge.
    if (this.transports.directOf(found.provider)) return { transferred: false };
    const reason = typeof request.reason === 'string' && request.reason ? request.reason : 'agent_transfer';
    return this.dataSource.transaction(async (em) => {
      const call = await em.findOne(Call, { where: { id: found.id }, lock: { mode: 'pessimistic_write' } });
      if (!call) return { transferred: false };
      if (call.endCallReason === TRANSFERRED) return { transferred: true };
      if (isTerminalStatus(call.status)) return { transferred: false };
      const requestedAt = new Date();
      try {
        if (!(await this.transports.carrierOf(call.provider).transfer(carrierCallOf(call), request.to))) {
          return { transferred: false };
        }
      } catch (err) {
        this.logger.warn(`call ${call.id}: ${call.provider} refused the transfer: ${(err as Error).message}`);
        return { transferred: false };
      }
      await this.transfers.record(em, call, { to: request.to, reason, requestedAt, bridgedAt: new Date() });
      return { transferred: true };
    });
  }
}

/**
 * A live call is bridged only to the number its agent allows (the settings copied when the call started),
 * and never to one on the account's do-not-call list: the command comes over NATS, and whatever can send it
 * must not reach any other number on the partner's carrier account.
 */
export async function checkTransferTarget(
  dataSource: DataSource,
  call: Call,
  to: string,
  logger: Logger,
): Promise<void> {
  const settings = call.agentSettings;
  const allowed = settings.transferEnabled ? settings.transferNumber : null;
  if (to !== allowed) {
    logger.warn(`call ${call.id}: refused a transfer to ${to}, not the agent's transfer_number`);
    throw new AppError(
      ErrorCode.FORBIDDEN,
      allowed === null
        ? "The call's agent does not transfer calls"
        : "The call's agent transfers only to its transfer_number",
    );
  }
  const [listed] = await doNotCallMatches(dataSource.manager, call.partnerId, to);
  if (listed) {
    logger.warn(`call ${call.id}: refused a transfer to ${to}, on the do-not-call list (${listed.id})`);
    throw new AppError(
      ErrorCode.DO_NOT_CALL,
      `${to} is on the do-not-call list (${listed.reason}, ${listed.id}); the call was not transferred`,
    );
  }
}
