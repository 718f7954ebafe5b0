import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { E164_PATTERN } from '@vap/api';
import {
  AppError,
  ErrorCode,
  SEND_DTMF_PATTERN,
  VoiceHangupRequest,
  VoiceSendDtmfReply,
  VoiceSendDtmfRequest,
  VoiceTransferReply,
  VoiceTransferRequest,
} from '@vap/messages';
import { isTerminalStatus } from '../calls/call-status-machine';
import { tableOf } from '@vap/persistence';
import { CallTransferService } from './call-transfer.service';
import { Call } from '../calls/entities/call.entity';
import { doNotCallMatches } from '../telephony/contact-policy/do-not-call.service';
import { findVoiceCall } from './voice-calls';
import { carrierCallOf } from '../carriers/carrier-call';
import { CallTransports } from '../carriers/call-transport';

/** The end_call_reason CallTransferService gives a transferred call. */
const TRANSFERRED = 'transferred';
const REASON_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * What the conversation decides about the call that only the carrier can carry out: a cold transfer to a
 * human and a hang-up, both through the carrier's REST API with the partner's credentials.
 */
@Injectable()
export class VoiceCallControl {
  private readonly logger = new Logger(VoiceCallControl.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transports: CallTransports,
    private readonly transfers: CallTransferService,
  ) {}

  /**
   * Asks the carrier to bridge the caller to `to`, the agent's transfer_number (see checkTarget), then records
   * the transfer (call.transferred through the outbox). A retry of a transfer that went through answers true
   * again and changes nothing; a call that has ended, or a carrier that refuses, answers false (the
   * conversation then carries on or says goodbye).
   */
  async transfer(request: VoiceTransferRequest, partnerId: string | null): Promise<VoiceTransferReply> {
    if (typeof request.to !== 'string' || !E164_PATTERN.test(request.to)) {
      throw AppError.validation([{ field: 'to', message: 'a transfer needs a number in E.164' }]);
    }
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    await this.checkTarget(call, request.to);
    if (call.endCallReason === TRANSFERRED) return { transferred: true };
    if (isTerminalStatus(call.status)) return { transferred: false };
    // A transport with no carrier has no leg to bridge.
    if (this.transports.directOf(call.provider)) return { transferred: false };
    try {
      if (!(await this.transports.carrierOf(call.provider).transfer(carrierCallOf(call), request.to))) {
        return { transferred: false };
      }
    } catch (err) {
      this.logger.warn(`call ${call.id}: ${call.provider} refused the transfer: ${(err as Error).message}`);
      return { transferred: false };
    }
    const reason = typeof request.reason === 'string' && request.reason ? request.reason : 'agent_transfer';
    return { transferred: await this.transfers.transfer(call.id, request.to, reason) };
  }

  /**
   * A live call is bridged only to the number its agent allows (the settings copied when the call started),
   * and never to one on the account's do-not-call list: the command comes over NATS, and whatever can send it
   * must not reach any other number on the partner's carrier account.
   */
  private async checkTarget(call: Call, to: string): Promise<void> {
    const settings = call.agentSettings;
    const allowed = settings.transferEnabled ? settings.transferNumber : null;
    if (to !== allowed) {
      this.logger.warn(`call ${call.id}: refused a transfer to ${to}, not the agent's transfer_number`);
      throw new AppError(
        ErrorCode.FORBIDDEN,
        allowed === null
          ? "The call's agent does not transfer calls"
          : "The call's agent transfers only to its transfer_number",
      );
    }
    const [listed] = await doNotCallMatches(this.dataSource.manager, call.partnerId, to);
    if (listed) {
      this.logger.warn(
        `call ${call.id}: refused a transfer to ${to}, on the do-not-call list (${listed.id})`,
      );
      throw new AppError(
        ErrorCode.DO_NOT_CALL,
        `${to} is on the do-not-call list (${listed.reason}, ${listed.id}); the call was not transferred`,
      );
    }
  }

  /**
   * The agent's send_dtmf on a carrier that takes keys through its REST API. Only for an agent that has the
   * tool (the settings copied when the call started): whatever can send the command must not press keys on
   * other calls. A call that has ended, a browser session or a carrier without the request answer false.
   */
  async sendDigits(request: VoiceSendDtmfRequest, partnerId: string | null): Promise<VoiceSendDtmfReply> {
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

  /**
   * Hangs the call up at the carrier with `reason` as its end_call_reason: the carrier's final callback
   * ends the call as usual and takes the reason from end_requested_reason. The first reason stands; a
   * call that has already ended only gets the reason when it has none.
   */
  async hangup(request: VoiceHangupRequest, partnerId: string | null): Promise<void> {
    const reason = checkedReason(request.reason);
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    const calls = tableOf(this.dataSource, Call);
    if (isTerminalStatus(call.status)) {
      await this.dataSource.query(
        `UPDATE ${calls} SET end_call_reason = $2 WHERE id = $1 AND end_call_reason IS NULL`,
        [call.id, reason],
      );
      return;
    }
    // A transport with no carrier to hang up and wait for ends the call (and charges it) now.
    const direct = this.transports.directOf(call.provider);
    if (direct) return direct.endNow(call.id, reason);
    await this.dataSource.query(
      `UPDATE ${calls}
          SET end_requested_at = now(), end_requested_reason = COALESCE(end_requested_reason, $2)
        WHERE id = $1`,
      [call.id, reason],
    );
    await this.transports.carrierOf(call.provider).hangup(carrierCallOf(call), reason);
  }
}

/** end_call_reason values are snake_case words (agent_ended_call, stt_provider_failed, ...). */
export function checkedReason(reason: unknown): string {
  if (typeof reason !== 'string' || !REASON_PATTERN.test(reason)) {
    throw AppError.validation([{ field: 'reason', message: 'reason must be a snake_case word' }]);
  }
  return reason;
}
