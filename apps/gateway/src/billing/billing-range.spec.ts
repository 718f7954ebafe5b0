import { AppError } from '@vap/messages';
import { billingRange } from './billing-range';

function refusal(query: { from?: string; to?: string }, maxDays?: number): unknown {
  try {
    billingRange(query, maxDays);
  } catch (err) {
    return (err as AppError).details;
  }
  throw new Error('accepted');
}

describe('billingRange', () => {
  it('reads dates and date-times without a zone as UTC, and honours offsets', () => {
    expect(billingRange({ from: '2026-01-31', to: '2026-02-01T10:00' })).toEqual({
      from: new Date('2026-01-31T00:00:00Z'),
      to: new Date('2026-02-01T10:00:00Z'),
    });
    expect(billingRange({ from: '2026-01-31T05:30:00+05:30' }).from).toEqual(
      new Date('2026-01-31T00:00:00Z'),
    );
  });

  it('refuses dates that do not exist, naming the field', () => {
    expect(refusal({ from: '2026-02-30T00:00:00Z' })).toEqual([
      { field: 'from', message: 'from is not a real date-time' },
    ]);
    expect(refusal({ to: '2026-13-01' })).toEqual([{ field: 'to', message: 'to is not a real date-time' }]);
  });

  it('refuses from at or after to, and a range longer than allowed', () => {
    expect(refusal({ from: '2026-01-02', to: '2026-01-02' })).toEqual([
      { field: 'to', message: 'to must be after from' },
    ]);
    expect(refusal({ from: '2025-01-01', to: '2026-01-03' }, 366)).toEqual([
      { field: 'to', message: 'the range from..to must be at most 366 days' },
    ]);
    expect(billingRange({ from: '2025-01-01', to: '2026-01-02' }, 366).to).toEqual(
      new Date('2026-01-02T00:00:00Z'),
    );
  });
});
