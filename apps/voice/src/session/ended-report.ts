import { setTimeout as sleep } from 'node:timers/promises';
import { Subjects, VoiceCallContext, VoiceEndedRequest } from '@vap/contracts';
import type { RpcClient } from '@vap/messaging';
import type { BlobStorage } from '@vap/storage';
import type { ConversationResult } from '../conversation';

/**
 * Where a call's recording lives: the calls service's key scheme (apps/calls recording-store), so it signs
 * download URLs for what the media plane wrote.
 */
export function recordingKey(partnerId: string, callId: string): string {
  return `recordings/${partnerId}/${callId}.wav`;
}

/** Two hours of two-channel 16-bit 8 kHz audio is about 230 MB; anything larger is not a call recording. */
const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

export interface EndedReportOptions {
  /** Attempts of calls.voice.ended: it is what finishes the call, so a blip in NATS must not lose it. */
  attempts?: number;
  /** Delay before the second attempt, doubled after each further failure. */
  retryDelayMs?: number;
  onRetry?: (attempt: number, error: Error) => void;
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
  const attempts = options.attempts ?? 5;
  let delay = options.retryDelayMs ?? 250;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await rpc.request(Subjects.calls.voiceEnded, context.partnerId, ended);
      return ended;
    } catch (err) {
      if (attempt >= attempts) throw err;
      options.onRetry?.(attempt, err as Error);
      await sleep(delay);
      delay *= 2;
    }
  }
}
