import { minimumStartBalancePaise } from './start-balance';

describe('minimumStartBalancePaise', () => {
  it('is the price of one 30-second call, rounded up to whole paise', () => {
    expect(minimumStartBalancePaise(200)).toBe(100);
    expect(minimumStartBalancePaise(201)).toBe(101);
    expect(minimumStartBalancePaise(0)).toBe(0);
  });
});
