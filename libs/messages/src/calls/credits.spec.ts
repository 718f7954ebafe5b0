import { accountPricePerMinutePaise, creditsPaise } from './credits';

describe('creditsPaise', () => {
  it('bills per second at the per-minute price, rounding up to the paisa', () => {
    expect(creditsPaise(60, 400)).toBe(400);
    expect(creditsPaise(30, 400)).toBe(200);
    expect(creditsPaise(1, 400)).toBe(7); // 6.67 paise
    expect(creditsPaise(0, 400)).toBe(0);
  });
});

describe('accountPricePerMinutePaise', () => {
  it('is the rate card when the account has one, else the platform price', () => {
    expect(accountPricePerMinutePaise({ pricePerMinutePaise: 600 }, 400)).toBe(600);
    expect(accountPricePerMinutePaise({ pricePerMinutePaise: null }, 400)).toBe(400);
    expect(accountPricePerMinutePaise({}, 400)).toBe(400);
  });
});
