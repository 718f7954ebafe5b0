import { MessageErrors, outcomeWasUnknown, reachableFrom } from './message-status';

describe('message statuses', () => {
  it('move forward only: sent from queued, a final status from queued or sent', () => {
    expect(reachableFrom('sent')).toEqual(['queued']);
    expect(reachableFrom('delivered')).toEqual(['queued', 'sent']);
    expect(reachableFrom('undelivered')).toEqual(['queued', 'sent']);
    expect(reachableFrom('failed')).toEqual(['queued', 'sent']);
    expect(reachableFrom('queued')).toEqual([]);
    expect(reachableFrom('received')).toEqual([]);
  });

  it('let the carrier settle a message only when the platform never learnt its outcome', () => {
    expect(outcomeWasUnknown('failed', MessageErrors.unanswered)).toBe(true);
    expect(outcomeWasUnknown('failed', MessageErrors.refused)).toBe(false);
    expect(outcomeWasUnknown('failed', '30003')).toBe(false);
    expect(outcomeWasUnknown('delivered', MessageErrors.unanswered)).toBe(false);
  });
});
