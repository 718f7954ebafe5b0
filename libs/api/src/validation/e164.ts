/** E.164: a plus, a non-zero country digit, 7 to 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
export const E164_EXAMPLE = '+919876543210';

/**
 * A number in a query string: an unencoded + arrives as a space (form encoding), so ` 15550001234` is read as
 * `+15550001234`. Anything else is left for the E.164 check to judge.
 */
export function queryE164(value: unknown): unknown {
  return typeof value === 'string' && /^ [1-9]\d*$/.test(value) ? `+${value.slice(1)}` : value;
}
