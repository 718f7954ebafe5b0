import { setTimeout as sleep } from 'node:timers/promises';
import { Subjects, VoiceCallContext, VoiceEndedRequest } from '@vap/contracts';
import type { RpcClient } from '@vap/messaging';
import type { ConversationResult } from '../conversation';
import { recordingKey } from './call-recording';

export interface EndedReportOptions {
  /** Attempts of calls.voice.ended: it is what finishes the call, so a blip in NATS must not lose it. */
  attempts?: number;
  /** Delay before the second attempt, doubled after each further failure. */
  retryDelayMs?: number;
  onRetry?: (attempt: number, error: Error) => void;
}

/**
 * Tells the calls service the stream is over, with the recording the call stored (written as it ran, under the
 * calls service's key), retrying.
 */
export async function reportEnded(
  rpc: RpcClient,
  context: VoiceCallContext,
  result: ConversationResult,
  options: EndedReportOptions = {},
): Promise<VoiceEndedRequest> {
  const recording: VoiceEndedRequest['recording'] = result.recording
    ? {
        storageKey: recordingKey(context.partnerId, context.callId),
        durationSeconds: result.recording.durationSeconds,
      }
    : null;
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
