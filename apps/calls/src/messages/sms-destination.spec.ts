import { countryOfNumber, isKnownCountry, smsDestinationOf } from './sms-destination';

describe('smsDestinationOf', () => {
  it.each([
    ['+19005551234', 'US'],
    ['+19765551234', 'US'],
    ['+882123456789', null],
    ['+881612345678', null],
    ['+870772345678', null],
    ['+979123456789', null],
  ])('refuses %s always as a premium range', (number, country) => {
    expect(smsDestinationOf(number)).toMatchObject({ risk: 'premium', country });
  });

  it('refuses a number libphonenumber types as premium rate outside the listed prefixes', () => {
    // UK 09 numbers are premium rate.
    expect(smsDestinationOf('+449098790000')).toEqual({ country: 'GB', risk: 'premium', prefix: null });
  });

  it.each([
    ['+5351234567', 'CU', '53'],
    ['+23276123456', 'SL', '232'],
    ['+37259123456', 'EE', '37259'],
    ['+6767712345', 'TO', '676'],
    ['+2203012345', 'GM', '220'],
    ['+96171123456', 'LB', '961'],
  ])('marks %s high risk with its country', (number, country, prefix) => {
    expect(smsDestinationOf(number)).toEqual({ country, risk: 'high_risk', prefix });
  });

  it('leaves ordinary numbers, Estonia outside its 59 range included, unflagged', () => {
    expect(smsDestinationOf('+919876543210')).toEqual({ country: 'IN', risk: null, prefix: null });
    expect(smsDestinationOf('+14155551001')).toEqual({ country: 'US', risk: null, prefix: null });
    expect(smsDestinationOf('+3725123456')).toEqual({ country: 'EE', risk: null, prefix: null });
  });
});

describe('countryOfNumber', () => {
  it('finds the region of a known range, a NANP island included', () => {
    expect(countryOfNumber('+18765551234')).toBe('JM');
    expect(countryOfNumber('+16045550123')).toBe('CA');
    expect(countryOfNumber('+4915123456789')).toBe('DE');
  });

  it("falls back to the calling code's main country for a number outside the known ranges", () => {
    expect(countryOfNumber('+15550004242')).toBe('US');
    expect(countryOfNumber('+447700900123')).toBe('GB');
    expect(countryOfNumber('+79001234567')).toBe('RU');
  });

  it('has no country for an international network', () => {
    expect(countryOfNumber('+882123456789')).toBeNull();
  });
});

it('knows ISO country codes', () => {
  expect(isKnownCountry('IN')).toBe(true);
  expect(isKnownCountry('XX')).toBe(false);
  expect(isKnownCountry('in')).toBe(false);
});
