import { summarizeHold } from './hold-summary';

describe('summarizeHold', () => {
  it('reports no hold when there was none', () => {
    expect(summarizeHold([], new Date())).toEqual({
      detected: false,
      events: [],
      total_secs: 0,
      ended_on_hold: false,
      kinds: [],
    });
  });

  it('pairs start and end, preferring the length the carrier reported', () => {
    const summary = summarizeHold(
      [
        { phase: 'end', kind: 'carrier_hold', at: '2026-01-01T00:00:02.000Z', durationSecs: 20 },
        { phase: 'start', kind: 'carrier_hold', at: '2026-01-01T00:00:01.000Z' },
      ],
      new Date('2026-01-01T00:01:00.000Z'),
    );
    expect(summary).toEqual({
      detected: true,
      events: [
        {
          kind: 'carrier_hold',
          started_at: '2026-01-01T00:00:01.000Z',
          ended_at: '2026-01-01T00:00:02.000Z',
          duration_secs: 20,
          recovered: true,
        },
      ],
      total_secs: 20,
      ended_on_hold: false,
      kinds: ['carrier_hold'],
    });
  });

  it('counts a hold still open at hangup until the end, not recovered', () => {
    const summary = summarizeHold(
      [{ phase: 'start', kind: 'music', at: '2026-01-01T00:00:10.000Z' }],
      new Date('2026-01-01T00:00:25.500Z'),
    );
    expect(summary.ended_on_hold).toBe(true);
    expect(summary.events[0]).toMatchObject({
      duration_secs: 15.5,
      recovered: false,
      ended_at: '2026-01-01T00:00:25.500Z',
    });
  });
});
