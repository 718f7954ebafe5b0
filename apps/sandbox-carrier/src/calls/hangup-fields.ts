import { PhoneEnd } from '@vap/carrier-sim';

/** What the platform asked of a live call over REST. */
export type PlatformRequest = { kind: 'hangup' } | { kind: 'transfer'; to: string };

/** Call time the callee spends with the human after a transfer, billed like the rest of the call. */
export const TRANSFERRED_LEG_SECONDS = 2;

/**
 * The final status callback's hang-up details (carrier_b's CallDuration plus the optional HangupCause,
 * HangupSource, Disposition and EndCallReason): who hung up and why, and the call's time in whole seconds.
 */
export function hangupFields(end: PhoneEnd, request: PlatformRequest | null): Record<string, string> {
  const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));
  if (request?.kind === 'transfer') {
    return {
      CallDuration: seconds(end.mediaMs + TRANSFERRED_LEG_SECONDS * 1000),
      HangupCause: 'NORMAL_CLEARING',
      HangupSource: 'callee',
      Disposition: 'transferred',
      EndCallReason: 'transferred',
    };
  }
  const duration = { CallDuration: seconds(end.mediaMs), HangupCause: 'NORMAL_CLEARING' };
  if (request?.kind === 'hangup') return { ...duration, HangupSource: 'system' };
  switch (end.kind) {
    case 'callee_hung_up':
      return {
        ...duration,
        HangupSource: 'callee',
        EndCallReason: 'callee_hung_up',
        ...(end.spoke ? {} : { Disposition: 'user_hangup_no_speech' }),
      };
    case 'stream_failed':
      return {
        ...duration,
        HangupCause: 'MEDIA_STREAM_FAILED',
        HangupSource: 'error',
        EndCallReason: 'media_stream_failed',
        ErrorMessage: `The media stream could not be kept open: ${end.error}`.slice(0, 300),
      };
    default:
      // The media plane closed the stream without asking for the hang-up: the platform ended the call.
      return { ...duration, HangupSource: 'system' };
  }
}
