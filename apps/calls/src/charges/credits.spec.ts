import { creditsPaise } from './credits';

describe('creditsPaise', () => {
  it('bills per second at the per-minute price, rounding up to the paisa', () => {
    expect(creditsPaise(60, 400)).toBe(400);
    expect(creditsPaise(30, 400)).toBe(200);
    expect(creditsPaise(1, 400)).toBe(7); // 6.67 paise
    expect(creditsPaise(0, 400)).toBe(0);
  });
});
