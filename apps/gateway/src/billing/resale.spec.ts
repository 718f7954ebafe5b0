import { creditsPaise } from '@vap/messages';
import { resaleSplit } from './resale';

describe('resale split', () => {
  it('leaves the reseller what its client paid over the platform’s charge for the billed seconds', () => {
    // 95 s: the client's rate card of 6.00/min is 950 paise; the platform's 4.00/min is 634 (633.33 up).
    const call = { billedSeconds: 95, billingRate: 'standard' as const, pricePaise: creditsPaise(95, 600) };
    expect(call.pricePaise).toBe(950);
    expect(resaleSplit(call, 950, 400)).toEqual({ platformPaise: 634, marginPaise: 316 });
  });

  it('charges the reseller the platform’s cost when its client’s balance fell short', () => {
    const call = { billedSeconds: 95, billingRate: 'standard' as const, pricePaise: 950 };
    expect(resaleSplit(call, 500, 400)).toEqual({ platformPaise: 634, marginPaise: -134 });
    expect(resaleSplit(call, 0, 400).marginPaise).toBe(-634);
  });

  it('gives no margin on a client without a rate card that paid in full', () => {
    const call = { billedSeconds: 95, billingRate: 'standard' as const, pricePaise: 634 };
    expect(resaleSplit(call, 634, 400).marginPaise).toBe(0);
  });

  it('passes a test run’s session through at the test price it was charged', () => {
    const call = { billedSeconds: 60, billingRate: 'test' as const, pricePaise: 100 };
    expect(resaleSplit(call, 100, 400)).toEqual({ platformPaise: 100, marginPaise: 0 });
    expect(resaleSplit(call, 40, 400).marginPaise).toBe(-60);
  });
});
