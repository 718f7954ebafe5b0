import { AnsweredBy, CallDisposition, CallStatus } from '@vap/messages';

/**
 * The disposition of a call that ended in `status`, when the carrier or pipeline named none. A completed
 * call the agent transferred to a human (end_call_reason transferred) was transferred, on every carrier.
 */
export function defaultDisposition(
  status: CallStatus,
  answeredBy: AnsweredBy | null,
  endCallReason: string | null = null,
): CallDisposition {
  switch (status) {
    case 'completed':
      if (endCallReason === 'transferred') return 'transferred';
      return answeredBy === 'machine' ? 'voicemail' : 'completed';
    case 'no_answer':
      return 'no_answer';
    case 'busy':
      return 'busy';
    case 'canceled':
      return 'canceled';
    default:
      return 'failed';
  }
}

/** Who answered, once the call is over: a call that ended without being answered was not answered. */
export function finalAnsweredBy(
  status: CallStatus,
  wasAnswered: boolean,
  answeredBy: AnsweredBy | null,
): AnsweredBy {
  if (answeredBy) return answeredBy;
  if (!wasAnswered && status !== 'completed') return 'not_answered';
  return 'unknown';
}
