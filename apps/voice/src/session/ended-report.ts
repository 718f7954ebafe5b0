import { Subjects, VoiceCallContext, VoiceEndedRequest } from '@vap/contracts';
import type { RpcClient } from '@vap/messaging';
import type { BlobStorage } from '@vap/storage';
import type { ConversationResult } from '../conversation';
import { RetryOptions, untilAcknowledged } from './until-acknowledged';

/**
 * Where a call's recording lives: the calls service's key scheme (apps/calls recording-store), so it signs
 * download URLs for what the media plane wrote.
 */
export function recordingKey(partnerId: string, callId: string): string {
  return `recordings/${partnerId}/${callId}.wav`;
}

/** Two hours of two-channel 16-bit 8 kHz audio is about 230 MB; anything larger is not a call recording. */
const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

/**
 * calls.voice.ended is what finishes the call, so it is retried until the calls service acknowledges it (it
 * takes a repeat as a no-op), within REPORT_RETRY_WINDOW_MS: a blip in NATS or a calls restart must not lose it.
 */
export interface EndedReportOptions extends RetryOptions {
  /** The recording could not be stored: the call still ends, without it. */
  onRecordingLost?: (error: Error) => void;
}

/** Stores the recording (when there is one) and tells the calls service the stream is over, retrying. */
export async function reportEnded(
  rpc: RpcClient,
  storage: BlobStorage,
  context: VoiceCallContext,
  result: ConversationResult,
  options: EndedReportOptions = {},
): Promise<VoiceEndedRequest> {
  let recording: VoiceEndedRequest['recording'] = null;
  if (result.recording) {
    const storageKey = recordingKey(context.partnerId, context.callId);
    try {
      await storage.put(storageKey, result.recording.wav, {
        contentType: 'audio/wav',
        maxBytes: MAX_RECORDING_BYTES,
      });
      recording = { storageKey, durationSeconds: result.recording.durationSeconds };
    } catch (err) {
      options.onRecordingLost?.(err as Error);
    }
  }
  const ended: VoiceEndedRequest = {
    callId: context.callId,
    endCallReason: result.endCallReason,
    mediaSeconds: result.mediaSeconds,
    recording,
  };
  await untilAcknowledged(() => rpc.request(Subjects.calls.voiceEnded, context.partnerId, ended), options);
  return ended;
}
