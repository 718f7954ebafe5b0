import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, CarrierCallbackIngest, CarrierCallbackReply, isUuid } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { isTerminalStatus } from '../calls/call-status-machine';
import { Call, carrierConnectionOf } from '../calls/entities/call.entity';
import { EndReasons } from '../progress/end-reasons';
import { CarrierReconciler } from './reconciliation/carrier-reconciler.service';
import { LateAnswerRelay, relaysToVoice } from './late-answer-relay.service';
import { CallbackCall, CarrierAdapter, callbackRequestOf, ParsedCallback } from './carrier-adapter';
import { hangupReply } from './carrier-xml';
import { CarrierRegistry } from './carrier-registry';
import { isTransferLegEvent, TransferLegs } from './transfer-legs/transfer-legs.service';

/**
 * Carrier callbacks as the gateway forwards them: find the call named in the URL, let the provider's
 * adapter verify the signature (403 before anything is stored), then feed each event to the progress
 * (a final one only once the carrier's REST API confirms it: CarrierReconciler). A machine answer that
 * comes while the call's media stream is live goes on to the voice service (LateAnswerRelay). A call the
 * platform gave up on before it knew its placement (placement_interrupted) that the carrier turns out to
 * carry is hung up there: nothing the platform pays for runs after a call ended. A warm transfer's human leg
 * reports on the call's URL too (`transfer_answer`, `transfer_status`): TransferLegs takes those.
 */
@Injectable()
export class CallbackIngestService {
  private readonly logger = new Logger(CallbackIngestService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: CarrierRegistry,
    private readonly reconciler: CarrierReconciler,
    private readonly lateAnswers: LateAnswerRelay,
    private readonly transferLegs: TransferLegs,
  ) {}

  async ingest(input: CarrierCallbackIngest): Promise<CarrierCallbackReply> {
    const adapter = this.carriers.get(input.provider);
    const call = isUuid(input.callId)
      ? await this.dataSource.getRepository(Call).findOne({ where: { id: input.callId } })
      : null;
    if (!call || call.provider !== input.provider) throw AppError.notFound('Call');
    // A warm transfer's human leg reports on the call's URL, apart from the call's own progress.
    if (isTransferLegEvent(input.event))
      return this.transferLegs.legCallback(adapter, call, callbackRequestOf(input));
    const carrierCall: CallbackCall = {
      id: call.id,
      partnerId: call.partnerId,
      connectionId: carrierConnectionOf(call),
      providerCallId: call.providerCallId,
      carrierLegId: call.carrierLegId,
    };
    const parsed = await adapter.parseCallback(callbackRequestOf(input), carrierCall);
    if (parsed.placementId) {
      // The placement's answer was lost (its id never saved): the signed callback to this call's URL names it.
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, Call)} SET provider_call_id = $2 WHERE id = $1 AND provider_call_id IS NULL`,
        [call.id, parsed.placementId],
      );
      call.providerCallId = carrierCall.providerCallId = parsed.placementId;
    }
    if (parsed.carrierLegId) {
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, Call)} SET carrier_leg_id = $2 WHERE id = $1 AND carrier_leg_id IS NULL`,
        [call.id, parsed.carrierLegId],
      );
      carrierCall.carrierLegId ??= parsed.carrierLegId;
    }
    if (this.carriedAfterGivingUp(call, parsed)) return this.hangUp(adapter, carrierCall, parsed);
    for (const event of parsed.events) {
      const result = await this.reconciler.apply(call, event);
      // Not awaited: the carrier's callback is answered at once, whatever the voice service does.
      if (result && relaysToVoice(result.answeredByChange, result.status))
        void this.lateAnswers.relay(call, result.answeredByChange!);
    }
    return parsed.reply ?? OK;
  }

  /** The platform ended the call without knowing its placement, and the carrier says it still runs. */
  private carriedAfterGivingUp(call: Call, parsed: ParsedCallback): boolean {
    return (
      isTerminalStatus(call.status) &&
      call.endCallReason === EndReasons.placementInterrupted &&
      parsed.events.some((e) => e.kind === 'status' && !e.ended)
    );
  }

  /**
   * Hangs the call up at the carrier (REST; a failure is logged, the carrier's next callback tries again) and
   * answers a callback that asks for instructions with a hang-up, never the media stream.
   */
  private async hangUp(
    adapter: CarrierAdapter,
    call: CallbackCall,
    parsed: ParsedCallback,
  ): Promise<CarrierCallbackReply> {
    this.logger.warn(`call ${call.id}: the carrier carries a call the platform ended; hanging it up`);
    await adapter
      .hangup(call, EndReasons.placementInterrupted)
      .catch((err: Error) =>
        this.logger.warn(`call ${call.id}: hang-up at the carrier failed: ${err.message}`),
      );
    return parsed.reply ? hangupReply() : OK;
  }
}

const OK: CarrierCallbackReply = { status: 200, contentType: 'text/plain', body: '' };
