import { calleeOutcome } from './outcomes';

describe('calleeOutcome', () => {
  it.each([
    ['+919876500001', 'no_answer'],
    ['+919876500002', 'busy'],
    ['+919876500003', 'failed'],
    ['+919876500004', 'voicemail'],
    ['+919876500005', 'hangup_no_speech'],
    ['+919876500006', 'hold'],
    ['+919876500007', 'long_talker'],
    ['+919876500008', 'asks_for_human'],
    ['+919876500009', 'calls_function'],
    ['+919876500010', 'conversation'],
    ['+919876500091', 'phone_menu'],
    ['+919876500092', 'keypad_entry'],
    ['+919876543210', 'conversation'],
    ['+14155550100', 'conversation'],
  ])('%s: %s', (to, outcome) => {
    expect(calleeOutcome(to)).toBe(outcome);
  });

  it('reads only the last two digits', () => {
    expect(calleeOutcome('+1415555010102')).toBe('busy');
    expect(calleeOutcome('+4402')).toBe('busy');
  });
});
