import { normalizeCarrierStatus, statusOfTerminalCause } from './status-normalization';

describe('normalizeCarrierStatus (the contract table, row by row)', () => {
  it.each([
    ['initiated', 'pending'],
    ['queued', 'pending'],
    ['ringing', 'ringing'],
    ['in-progress', 'in_progress'],
    ['answered', 'in_progress'],
    ['completed', 'completed'],
    ['busy', 'busy'],
    ['no-answer', 'no_answer'],
    ['canceled', 'canceled'],
    ['cancel', 'canceled'],
    ['failed', 'failed'],
    ['timeout', 'failed'],
    ['error', 'failed'],
  ])('raw status %s -> %s', (raw, expected) => {
    expect(normalizeCarrierStatus({ status: raw })).toBe(expected);
  });

  it.each([
    ['In-Progress', 'in_progress'],
    ['NO_ANSWER', 'no_answer'],
    ['No Answer', 'no_answer'],
    ['CANCELLED', 'canceled'],
  ])('ignores case and separators: %s -> %s', (raw, expected) => {
    expect(normalizeCarrierStatus({ status: raw })).toBe(expected);
  });

  it('maps an answered event of the reseller link (no status) to in_progress', () => {
    expect(normalizeCarrierStatus({ status: null, event: 'answered' })).toBe('in_progress');
  });

  it('maps a lifecycle Answered to in_progress while live and completed after hangup', () => {
    expect(normalizeCarrierStatus({ status: 'Answered', ended: false })).toBe('in_progress');
    expect(normalizeCarrierStatus({ status: 'Answered', ended: true })).toBe('completed');
  });

  it('maps a lifecycle Missed to no_answer', () => {
    expect(normalizeCarrierStatus({ status: 'Missed', ended: true })).toBe('no_answer');
  });

  it.each([
    ['USER_BUSY', 'busy'],
    ['ORIGINATOR_CANCEL', 'canceled'],
    ['NETWORK_OUT_OF_ORDER', 'failed'],
    ['CALL_REJECTED', 'failed'],
  ])('maps the terminal cause %s of an ended lifecycle payload to %s', (cause, expected) => {
    expect(normalizeCarrierStatus({ status: 'Terminated', ended: true, hangupCause: cause })).toBe(expected);
    expect(normalizeCarrierStatus({ status: null, ended: true, hangupCause: cause })).toBe(expected);
    expect(statusOfTerminalCause(cause)).toBe(expected);
  });

  it('returns null for signals without a status (hold notifications, unknown live values)', () => {
    expect(normalizeCarrierStatus({ status: null, event: 'hold' })).toBeNull();
    expect(normalizeCarrierStatus({ status: 'something-new' })).toBeNull();
    expect(normalizeCarrierStatus({ status: '' })).toBeNull();
  });
});
