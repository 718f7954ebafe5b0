import { hangupFields, TRANSFERRED_LEG_SECONDS } from './hangup-fields';

describe('hangupFields (the final callback of an answered sandbox call)', () => {
  it('a callee who hangs up without a word: user_hangup_no_speech, callee_hung_up, by the callee', () => {
    expect(hangupFields({ kind: 'callee_hung_up', mediaMs: 3200, spoke: false }, null)).toEqual({
      CallDuration: '4',
      HangupCause: 'NORMAL_CLEARING',
      HangupSource: 'callee',
      EndCallReason: 'callee_hung_up',
      Disposition: 'user_hangup_no_speech',
    });
    // One who spoke first leaves the disposition to the platform.
    expect(hangupFields({ kind: 'callee_hung_up', mediaMs: 3200, spoke: true }, null)).not.toHaveProperty(
      'Disposition',
    );
  });

  it('a call the platform hung up, or whose stream it closed, ends by the system without a reason of its own', () => {
    for (const [end, request] of [
      [{ kind: 'disconnected', mediaMs: 58_400, spoke: true }, { kind: 'hangup' }],
      [{ kind: 'stream_closed', mediaMs: 58_400, spoke: true }, null],
    ] as const) {
      expect(hangupFields(end, request)).toEqual({
        CallDuration: '59',
        HangupCause: 'NORMAL_CLEARING',
        HangupSource: 'system',
      });
    }
  });

  it('a transferred call: transferred, billed with the time the callee spent with the human', () => {
    expect(
      hangupFields({ kind: 'disconnected', mediaMs: 10_000, spoke: true }, { kind: 'transfer', to: '+1555' }),
    ).toEqual({
      CallDuration: String(10 + TRANSFERRED_LEG_SECONDS),
      HangupCause: 'NORMAL_CLEARING',
      HangupSource: 'callee',
      Disposition: 'transferred',
      EndCallReason: 'transferred',
    });
  });
});
