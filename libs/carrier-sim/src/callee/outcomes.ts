/**
 * What the sandbox's simulated callee does, chosen by the last two digits of to_number:
 * 01 no answer, 02 busy, 03 carrier failure, 04 voicemail (machine answers), 05 the callee answers and
 * hangs up without speaking, 06 the callee puts the call on hold (carrier hold events) and comes back,
 * 07 the callee talks at length (the agent's max_call_duration_secs ends the call), 08 the callee asks
 * for a human (transfer when the agent has transfer_enabled), 09 the callee asks the agent to check order 42
 * (with the offline engine, an agent with a partner function named check_order calls it by that engine's rule;
 * a real model decides by itself), 91 the callee is an automated phone menu that
 * waits for a key (the agent's send_dtmf), 92 the callee keys in an account number on the keypad (the agent's
 * dtmf input), 93 a human a warm transfer reaches who hears the agent's briefing and accepts the caller, 94 one who
 * declines (01 and 02 are a human who does not answer, or is busy), anything else a short conversation.
 */
export type CalleeOutcome =
  | 'no_answer'
  | 'busy'
  | 'failed'
  | 'voicemail'
  | 'hangup_no_speech'
  | 'hold'
  | 'long_talker'
  | 'asks_for_human'
  | 'phone_menu'
  | 'keypad_entry'
  | 'calls_function'
  | 'accepts_transfer'
  | 'declines_transfer'
  | 'conversation';

const BY_SUFFIX: Record<string, CalleeOutcome> = {
  '01': 'no_answer',
  '02': 'busy',
  '03': 'failed',
  '04': 'voicemail',
  '05': 'hangup_no_speech',
  '06': 'hold',
  '07': 'long_talker',
  '08': 'asks_for_human',
  '91': 'phone_menu',
  '92': 'keypad_entry',
  '09': 'calls_function',
  '93': 'accepts_transfer',
  '94': 'declines_transfer',
};

export function calleeOutcome(toNumber: string): CalleeOutcome {
  return BY_SUFFIX[toNumber.slice(-2)] ?? 'conversation';
}
