import { usageFigures, usageReport } from './usage-report';

describe('usageReport', () => {
  it('orders the buckets by key, the ungrouped one last, and totals the integers', () => {
    const report = usageReport([
      { key: null, calls: 1, billedSeconds: 10, paise: 17 },
      { key: '2026-01-02', calls: 2, billedSeconds: 61, paise: 101 },
      { key: '2026-01-01', calls: 1, billedSeconds: 1, paise: 2 },
    ]);
    expect(report.buckets.map((b) => b.key)).toEqual(['2026-01-01', '2026-01-02', null]);
    expect(report.totals).toEqual({ calls: 4, billed_seconds: 72, minutes: 1.2, credits_inr: 1.2 });
  });

  it('sums the totals from seconds and paise, not from the rounded bucket figures', () => {
    // Three buckets of 1 s: 0.02 min each rounded, 3 s together is 0.05 min.
    const report = usageReport(['a', 'b', 'c'].map((key) => ({ key, calls: 1, billedSeconds: 1, paise: 1 })));
    expect(report.buckets.map((b) => b.minutes)).toEqual([0.02, 0.02, 0.02]);
    expect(report.totals.minutes).toBe(0.05);
    expect(report.totals.credits_inr).toBe(0.03);
  });

  it('answers zero totals and no buckets for a range without charges', () => {
    expect(usageReport([])).toEqual({
      buckets: [],
      totals: { calls: 0, billed_seconds: 0, minutes: 0, credits_inr: 0 },
    });
  });

  it('gives minutes to two decimals', () => {
    expect(usageFigures({ calls: 1, billedSeconds: 95, paise: 150 }).minutes).toBe(1.58);
  });
});
