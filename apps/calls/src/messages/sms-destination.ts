import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';

/**
 * Where an SMS would go, judged before it is sent: the number's country and whether its range is one that
 * trusted senders never text (premium and international shared-cost ranges, refused always) or one known for
 * SMS pumping fraud (refused unless the account lists that country itself). The one place these ranges live.
 */

/**
 * Prefixes (digits after +) refused always: North American premium (900) and pay-per-call (976) numbers,
 * Inmarsat (870), the global satellite and international networks (881, 882, 883) and the international
 * premium-rate service (979). A number libphonenumber types as premium rate is refused the same way.
 */
export const PREMIUM_SMS_PREFIXES: readonly string[] = ['1900', '1976', '870', '881', '882', '883', '979'];

/**
 * Prefixes refused unless the account's allowed_countries names their country explicitly: ranges carriers and
 * SMS providers flag for artificially inflated traffic (SMS pumping). Cuba, Sierra Leone, Estonia's 59 range,
 * Tonga, Gambia, Lebanon.
 */
export const HIGH_RISK_SMS_PREFIXES: readonly string[] = ['53', '232', '37259', '676', '220', '961'];

export type SmsRangeRisk = 'premium' | 'high_risk';

export interface SmsDestination {
  /** ISO 3166-1 alpha-2 country of the number, or null (an international network, an unknown code). */
  country: string | null;
  /** The refused range it is in, and the prefix that matched. */
  risk: SmsRangeRisk | null;
  prefix: string | null;
}

const longestMatch = (digits: string, prefixes: readonly string[]) =>
  prefixes.filter((p) => digits.startsWith(p)).sort((a, b) => b.length - a.length)[0] ?? null;

/**
 * The number's country: libphonenumber's region for a number it knows, else the main country of its calling
 * code (+1 is the US, +44 GB), so a number outside the ranges libphonenumber knows still has the country
 * carriers would route it to; null for a code no country has (+800, +881...).
 */
export function countryOfNumber(e164: string): string | null {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return null;
  if (parsed.country) return parsed.country;
  return MAIN_COUNTRY_BY_CODE.get(parsed.countryCallingCode) ?? null;
}

/** Each calling code's main country: the first alphabetically, except for the codes shared with a larger one. */
const MAIN_COUNTRY_BY_CODE: Map<string, string> = (() => {
  const map = new Map<string, string>();
  for (const country of getCountries()) {
    const code = getCountryCallingCode(country);
    if (!map.has(code)) map.set(code, country);
  }
  for (const [code, country] of [
    ['1', 'US'],
    ['7', 'RU'],
    ['44', 'GB'],
    ['61', 'AU'],
    ['39', 'IT'],
    ['47', 'NO'],
    ['212', 'MA'],
    ['358', 'FI'],
    ['590', 'GP'],
    ['599', 'CW'],
  ])
    map.set(code, country);
  return map;
})();

/** Whether an ISO code is a country the platform can place numbers in (the codes libphonenumber knows). */
export function isKnownCountry(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

/** What the platform knows of an SMS destination: its country and the refused range it falls in, if any. */
export function smsDestinationOf(e164: string): SmsDestination {
  const digits = e164.replace(/^\+/, '');
  const country = countryOfNumber(e164);
  const premium = longestMatch(digits, PREMIUM_SMS_PREFIXES);
  if (premium) return { country, risk: 'premium', prefix: premium };
  if (parsePhoneNumberFromString(e164)?.getType() === 'PREMIUM_RATE') {
    return { country, risk: 'premium', prefix: null };
  }
  const risky = longestMatch(digits, HIGH_RISK_SMS_PREFIXES);
  if (risky) return { country, risk: 'high_risk', prefix: risky };
  return { country, risk: null, prefix: null };
}
