import { completedIfAnswered, platformEndedCall } from './platform-ended-call';

describe('platformEndedCall', () => {
  const at = new Date('2026-01-02T03:04:05Z');

  it('builds an ended status event the platform hung up, keyed by its event', () => {
    expect(
      platformEndedCall(
        { provider: 'carrier_a' },
        {
          event: 'stale-call-timeout',
          at,
          status: 'failed',
          hangupCause: 'NO_FINAL_STATUS',
          errorMessage: 'late',
        },
      ),
    ).toStrictEqual({
      provider: 'carrier_a',
      kind: 'status',
      dedupeKey: 'stale-call-timeout',
      providerStatus: 'failed',
      providerEvent: 'stale-call-timeout',
      sequence: null,
      ended: true,
      occurredAt: at,
      hangupSource: 'system',
      hangupCause: 'NO_FINAL_STATUS',
      errorMessage: 'late',
    });
  });

  it('keeps a named dedupe key, hang-up source and the details given, and cuts the error to its stored length', () => {
    const event = platformEndedCall(
      { provider: 'carrier_b' },
      {
        event: 'pre-call-hook',
        dedupeKey: 'pre-call-hook-blocked',
        status: 'canceled',
        hangupSource: 'carrier',
        hangupCause: 'PRE_CALL_HOOK_BLOCKED',
        disposition: 'blocked',
        endCallReason: 'pre_call_hook_blocked',
        errorMessage: 'x'.repeat(600),
      },
    );
    expect(event).toMatchObject({
      dedupeKey: 'pre-call-hook-blocked',
      providerEvent: 'pre-call-hook',
      providerStatus: 'canceled',
      hangupSource: 'carrier',
      disposition: 'blocked',
      endCallReason: 'pre_call_hook_blocked',
    });
    expect(event.errorMessage).toHaveLength(500);
  });

  it('ends now when no time is given', () => {
    const before = Date.now();
    const { occurredAt } = platformEndedCall(
      { provider: 'carrier_a' },
      { event: 'place-call', status: null },
    );
    expect(occurredAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(occurredAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('leaves the status and how it ended to the carrier record when the platform does not decide them', () => {
    expect(
      platformEndedCall({ provider: 'carrier_a' }, { event: 'carrier-check', at, status: null }),
    ).toStrictEqual({
      provider: 'carrier_a',
      kind: 'status',
      dedupeKey: 'carrier-check',
      providerStatus: null,
      providerEvent: 'carrier-check',
      sequence: null,
      ended: true,
      occurredAt: at,
    });
  });
});

describe('completedIfAnswered', () => {
  it('fails an unanswered call with its message', () => {
    expect(completedIfAnswered({ status: 'ringing' }, 'never answered', 12)).toStrictEqual({
      status: 'failed',
      errorMessage: 'never answered',
    });
  });

  it('completes an answered call, billed by call progress when no seconds are given', () => {
    expect(completedIfAnswered({ status: 'in_progress' }, 'never answered')).toStrictEqual({
      status: 'completed',
    });
  });

  it('bills an answered call for its whole seconds, at least one', () => {
    expect(completedIfAnswered({ status: 'in_progress' }, 'unused', 41.6)).toStrictEqual({
      status: 'completed',
      durationSeconds: 42,
      billDurationSeconds: 42,
    });
    expect(completedIfAnswered({ status: 'in_progress' }, 'unused', null)).toMatchObject({
      durationSeconds: 1,
    });
  });
});
