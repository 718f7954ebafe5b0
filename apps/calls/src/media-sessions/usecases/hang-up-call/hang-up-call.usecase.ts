import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { VoiceHangupRequest } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { isTerminalStatus } from '../../../calls/call-status-machine';
import { Call } from '../../../calls/entities/call.entity';
import { CallTransports } from '../../../carriers/call-transport';
import { carrierCallOf } from '../../../carriers/carrier-call';
import { checkedReason, findVoiceCall } from '../../voice-calls';

/**
 * calls.voice.hangup: the conversation ends the call. It is hung up at the carrier with `reason` as its
 * end_call_reason: the carrier's final callback ends the call as usual and takes the reason from
 * end_requested_reason. The first reason stands; a call that has already ended only gets the reason when it has
 * none.
 */
@Injectable()
export class HangUpCall {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transports: CallTransports,
  ) {}

  async execute(request: VoiceHangupRequest, partnerId: string | null): Promise<void> {
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
