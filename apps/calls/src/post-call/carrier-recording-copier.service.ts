import { Injectable, Logger } from '@nestjs/common';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { Call, carrierConnectionOf } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { RecordingStore } from '../recording/recording-store';
import { PostCallNotReady } from './post-call-not-ready';

/** Attempts of a post-call job that wait for a late carrier recording before completing without it. */
export const RECORDING_WAIT_ATTEMPTS = 4;

/**
 * Copies a recording the carrier holds (reported by URL) into blob storage, so the platform signs its
 * own 7-day URLs. Carriers often report the recording after the hangup: the first attempts of the job
 * wait for it (by failing, so the job is retried); after that the session completes without one.
 */
@Injectable()
export class CarrierRecordingCopier {
  private readonly logger = new Logger(CarrierRecordingCopier.name);

  constructor(
    private readonly carriers: CarrierRegistry,
    private readonly recordings: RecordingStore,
  ) {}

  /** The stored recording's key, or null when there is none to copy (or no more time to wait for it). */
  async copy(call: Call, session: CallSession, attempt: number): Promise<string | null> {
    if (!call.agentSettings.enableRecording || session.recordingKey) return null;
    const adapter = this.carriers.has(call.provider) ? this.carriers.get(call.provider) : null;
    if (!adapter?.fetchRecording) return null;
    const waiting = attempt < RECORDING_WAIT_ATTEMPTS;
    if (!session.recordingSourceUrl) {
      if (waiting) throw new PostCallNotReady('waiting for the carrier to report the recording');
      return null;
    }
    try {
      const fetched = await adapter.fetchRecording(session.recordingSourceUrl, {
        id: call.id,
        partnerId: call.partnerId,
        connectionId: carrierConnectionOf(call),
        providerCallId: call.providerCallId,
      });
      return await this.recordings.saveCarrierRecording(
        call.partnerId,
        call.id,
        fetched.body,
        fetched.contentType,
      );
    } catch (err) {
      if (waiting) throw err;
      this.logger.warn(`call ${call.id}: recording not copied from the carrier: ${(err as Error).message}`);
      return null;
    }
  }
}
