import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { CallbackUrls } from '../carriers/callback-urls';
import { CarrierAdapter } from '../carriers/carrier-adapter';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { CallProgressService } from '../progress/call-progress.service';
import { Call, carrierConnectionOf } from '../calls/entities/call.entity';

/**
 * Hands an admitted outbound call to its carrier. A carrier that refuses or cannot be reached fails the
 * call like any carrier failure (through progress) and the start answers 502; a 4xx stays as it is.
 */
@Injectable()
export class CallDialer {
  private readonly logger = new Logger(CallDialer.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: CarrierRegistry,
    private readonly urls: CallbackUrls,
    private readonly progress: CallProgressService,
  ) {}

  /** The provider's adapter, looked up before the call is admitted: an unknown carrier is 404, no row. */
  carrierFor(provider: string): CarrierAdapter {
    return this.carriers.get(provider);
  }

  async dial(adapter: CarrierAdapter, call: Call): Promise<void> {
    try {
      const placed = await adapter.placeCall(
        {
          callId: call.id,
          partnerId: call.partnerId,
          agentId: call.agentId,
          fromNumber: call.fromNumber,
          toNumber: call.toNumber,
          agent: call.agentSettings,
          variables: call.variables,
          callbackUrl: this.urls.forCall(call.provider, call.id),
        },
        { id: carrierConnectionOf(call), partnerId: call.partnerId, provider: call.provider },
      );
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, Call)} SET provider_call_id = $2 WHERE id = $1`,
        [call.id, placed.providerCallId],
      );
    } catch (err) {
      await this.placementFailed(call, err);
      if (err instanceof AppError && err.status < 500) throw err;
      throw AppError.downstream(`The carrier could not place call ${call.id}; retry`);
    }
  }

  /** The carrier refused or was unreachable: the call fails like any carrier failure, through progress. */
  private async placementFailed(call: Call, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    this.logger.warn(`placing call ${call.id} on ${call.provider} failed: ${message}`);
    await this.progress.apply(
      { callId: call.id },
      {
        provider: call.provider,
        kind: 'status',
        dedupeKey: 'place-call-failed',
        providerStatus: 'failed',
        providerEvent: 'place-call',
        sequence: null,
        ended: true,
        occurredAt: new Date(),
        hangupSource: 'carrier',
        hangupCause: 'PLACEMENT_FAILED',
        errorMessage: `The carrier could not place the call: ${message}`.slice(0, 500),
      },
    );
  }
}
