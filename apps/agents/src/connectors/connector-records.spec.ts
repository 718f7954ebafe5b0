import { connectionStatus } from './connector-records';
import type { CustomerConnection } from './entities/customer-connection.entity';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const row = (over: Partial<CustomerConnection>): CustomerConnection =>
  ({
    status: 'connected',
    linkExpiresAt: null,
    tokenExpiresAt: null,
    refreshTokenSealed: null,
    ...over,
  }) as CustomerConnection;

describe('connectionStatus', () => {
  it('shows a pending link that ran out as expired', () => {
    expect(connectionStatus(row({ status: 'pending', linkExpiresAt: new Date(NOW + 1000) }), NOW)).toBe(
      'pending',
    );
    expect(connectionStatus(row({ status: 'pending', linkExpiresAt: new Date(NOW - 1) }), NOW)).toBe(
      'expired',
    );
  });

  it('shows an access token that ran out with nothing to refresh it as expired, else connected', () => {
    expect(connectionStatus(row({ tokenExpiresAt: new Date(NOW - 1) }), NOW)).toBe('expired');
    expect(connectionStatus(row({ tokenExpiresAt: new Date(NOW - 1), refreshTokenSealed: 'x' }), NOW)).toBe(
      'connected',
    );
    expect(connectionStatus(row({}), NOW)).toBe('connected');
    expect(connectionStatus(row({ status: 'revoked' }), NOW)).toBe('revoked');
  });
});
