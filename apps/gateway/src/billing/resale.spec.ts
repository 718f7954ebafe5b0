import { creditsPaise, resaleSplit } from './resale';

describe('resale split', () => {
  it('bills per second at the per-minute price, rounded up to the paisa, nothing unanswered', () => {
    expect(creditsPaise(0, 600)).toBe(0);
    expect(creditsPaise(60, 600)).toBe(600);
    expect(creditsPaise(95, 400)).toBe(634); // 633.33 rounds up
  });

  it('charges the client its rate card and leaves the reseller the difference over the platform charge', () => {
    // 95 s: the platform's 4.00/min is 634 paise, the reseller's 6.00/min is 950.
    expect(resaleSplit(95, 634, 600, 10_000)).toEqual({
      clientPricePaise: 950,
      collectedPaise: 950,
      marginPaise: 316,
    });
  });

  it('takes what a short balance has left; the reseller still bears the platform charge', () => {
    expect(resaleSplit(95, 634, 600, 500)).toEqual({
      clientPricePaise: 950,
      collectedPaise: 500,
      marginPaise: -134,
    });
    expect(resaleSplit(95, 634, 600, 0).marginPaise).toBe(-634);
  });

  it('keeps the test rate’s lower platform charge as the cost of a test session', () => {
    // A test run's 60 s at 1.00/min costs the platform 100 paise; the client pays its rate card.
    expect(resaleSplit(60, 100, 600, 10_000).marginPaise).toBe(500);
  });
});
