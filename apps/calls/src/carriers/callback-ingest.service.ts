import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, CarrierCallbackIngest, CarrierCallbackReply, isUuid } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { Call, carrierConnectionOf } from '../calls/entities/call.entity';
import { CarrierReconciler } from './reconciliation/carrier-reconciler.service';
import { LateAnswerRelay, relaysToVoice } from './late-answer-relay.service';
import { callbackRequestOf } from './carrier-adapter';
import { CarrierRegistry } from './carrier-registry';

/**
 * Carrier callbacks as the gateway forwards them: find the call named in the URL, let the provider's
 * adapter verify the signature (403 before anything is stored), then feed each event to the progress
 * (a final one only once the carrier's REST API confirms it: CarrierReconciler). A machine answer that
 * comes while the call's media stream is live goes on to the voice service (LateAnswerRelay).
 */
@Injectable()
export class CallbackIngestService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: CarrierRegistry,
    private readonly reconciler: CarrierReconciler,
    private readonly lateAnswers: LateAnswerRelay,
  ) {}

  async ingest(input: CarrierCallbackIngest): Promise<CarrierCallbackReply> {
    const adapter = this.carriers.get(input.provider);
    const call = isUuid(input.callId)
      ? await this.dataSource.getRepository(Call).findOne({ where: { id: input.callId } })
      : null;
    if (!call || call.provider !== input.provider) throw AppError.notFound('Call');
    const parsed = await adapter.parseCallback(callbackRequestOf(input), {
      id: call.id,
      partnerId: call.partnerId,
      connectionId: carrierConnectionOf(call),
      providerCallId: call.providerCallId,
      carrierLegId: call.carrierLegId,
    });
    if (parsed.placementId) {
      // The placement's answer was lost (its id never saved): the signed callback to this call's URL names it.
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, Call)} SET provider_call_id = $2 WHERE id = $1 AND provider_call_id IS NULL`,
        [call.id, parsed.placementId],
      );
      call.providerCallId = parsed.placementId;
    }
    if (parsed.carrierLegId) {
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, Call)} SET carrier_leg_id = $2 WHERE id = $1 AND carrier_leg_id IS NULL`,
        [call.id, parsed.carrierLegId],
      );
    }
    for (const event of parsed.events) {
      const result = await this.reconciler.apply(call, event);
      // Not awaited: the carrier's callback is answered at once, whatever the voice service does.
      if (result && relaysToVoice(result.answeredByChange, result.status))
        void this.lateAnswers.relay(call, result.answeredByChange!);
    }
    return parsed.reply ?? { status: 200, contentType: 'text/plain', body: '' };
  }
}
