import { Subjects, VoiceCallContext, VoiceEndedRequest } from '@vap/messages';
import { type RetryOptions, type RpcClient, untilAcknowledged } from '@vap/messaging';
import type { ConversationResult } from '../conversation';
import { recordingKey } from './call-recording';
import { REPORT_RETRY_WINDOW_MS } from './report-retry';

/**
 * calls.voice.ended is what finishes the call, so it is retried until the calls service acknowledges it (it
 * takes a repeat as a no-op), within REPORT_RETRY_WINDOW_MS: a blip in NATS or a calls restart must not lose it.
 */
export type EndedReportOptions = Partial<RetryOptions>;

/**
 * Tells the calls service the stream is over, with the recording the call stored (written as it ran, under the
 * calls service's key), the cloud speech providers the platform paid for and whose key answered each model,
 * retrying.
 */
export async function reportEnded(
  rpc: RpcClient,
  context: VoiceCallContext,
  result: ConversationResult,
  platformPaidSpeech: readonly string[],
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
    platformPaidSpeech: [...platformPaidSpeech],
    // Whose key answered each model that wrote a round: the calls service sums the tokens from the lines.
    modelPaidBy: (result.modelUsage ?? []).map(({ provider, model, paidBy }) => ({
      provider,
      model,
      paidBy,
    })),
  };
  await untilAcknowledged(() => rpc.request(Subjects.calls.voiceEnded, context.partnerId, ended), {
    ...options,
    deadline: options.deadline ?? Date.now() + REPORT_RETRY_WINDOW_MS,
  });
  return ended;
}
