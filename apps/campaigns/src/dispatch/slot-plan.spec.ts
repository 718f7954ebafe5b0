import { freeSlots, freshSlots, SlotState } from './slot-plan';

const base: SlotState = {
  concurrencyLimit: 5,
  retryConcurrency: 2,
  accountLimit: 5,
  campaignInFlight: 0,
  retryInFlight: 0,
  partnerInFlight: 0,
};

describe('slot plan', () => {
  it('fills up to min(concurrency_limit, account limit)', () => {
    expect(freeSlots(base)).toBe(5);
    expect(freeSlots({ ...base, concurrencyLimit: 10, accountLimit: 3 })).toBe(3);
    expect(freeSlots({ ...base, campaignInFlight: 4, partnerInFlight: 4 })).toBe(1);
    expect(freeSlots({ ...base, campaignInFlight: 6, partnerInFlight: 6 })).toBe(0);
  });

  it('never lets the partner’s campaigns together exceed the account limit', () => {
    expect(freeSlots({ ...base, campaignInFlight: 1, partnerInFlight: 4 })).toBe(1);
    expect(freeSlots({ ...base, campaignInFlight: 0, partnerInFlight: 5 })).toBe(0);
  });

  it('keeps retry_concurrency slots for retries only while a retry waits', () => {
    expect(freshSlots(base, 5, false)).toBe(5);
    expect(freshSlots(base, 5, true)).toBe(3);
    expect(freshSlots({ ...base, retryInFlight: 1 }, 4, true)).toBe(3);
    expect(freshSlots({ ...base, retryInFlight: 2 }, 3, true)).toBe(3);
    expect(freshSlots({ ...base, retryConcurrency: 5 }, 5, true)).toBe(0);
  });
});
