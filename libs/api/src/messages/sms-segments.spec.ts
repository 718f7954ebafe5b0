import { smsSegments } from './sms-segments';

describe('smsSegments', () => {
  it('counts GSM-7 bodies by septets: 160 in one segment, 153 per segment when split', () => {
    expect(smsSegments('a')).toBe(1);
    expect(smsSegments('a'.repeat(160))).toBe(1);
    expect(smsSegments('a'.repeat(161))).toBe(2);
    expect(smsSegments('a'.repeat(306))).toBe(2);
    expect(smsSegments('a'.repeat(307))).toBe(3);
  });

  it('counts extension characters as two septets', () => {
    expect(smsSegments('€'.repeat(80))).toBe(1);
    expect(smsSegments('€'.repeat(81))).toBe(2);
  });

  it('counts anything outside GSM-7 as UCS-2: 70 in one segment, 67 per segment when split', () => {
    expect(smsSegments('नमस्ते')).toBe(1);
    expect(smsSegments('é'.repeat(159) + 'ş')).toBe(3);
    expect(smsSegments('ş'.repeat(70))).toBe(1);
    expect(smsSegments('ş'.repeat(71))).toBe(2);
  });
});
