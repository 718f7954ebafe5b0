import { answeredByOf, hangupSourceOf } from './carrier-a-fields';

describe('carrier_a fields', () => {
  it.each([
    ['Caller', 'caller'],
    ['Callee', 'callee'],
    ['API Request', 'api'],
    ['Answer XML', 'system'],
    ['Error', 'error'],
    ['Unknown', 'unknown'],
    ['Plivo', 'carrier'],
    [undefined, null],
  ])('maps HangupSource %p to %p', (raw, mapped) => {
    expect(hangupSourceOf(raw)).toBe(mapped);
  });

  it('maps machine detection', () => {
    expect(answeredByOf('true')).toBe('machine');
    expect(answeredByOf('false')).toBe('human');
    expect(answeredByOf(undefined)).toBeNull();
  });
});
