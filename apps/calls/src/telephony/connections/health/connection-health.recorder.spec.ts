import { failureReasonOf } from './connection-health.recorder';

describe('failureReasonOf', () => {
  it.each([
    [401, 'credentials_rejected'],
    [403, 'credentials_rejected'],
    [404, 'account_not_found'],
    [400, 'carrier_error'],
    [429, 'carrier_error'],
    [503, 'carrier_error'],
  ])('reads HTTP %i as %s', (status, reason) => expect(failureReasonOf(status)).toBe(reason));
});
