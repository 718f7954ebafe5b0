import { AppError } from '@vap/messages';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface BillingRange {
  from: Date | null;
  to: Date | null;
}

/** A date-time the DTO's pattern let through, or null when it names no real instant (2026-02-30). */
function instant(value: string | undefined): Date | null | 'invalid' {
  if (value === undefined) return null;
  // Date reads a date-time without a zone as local time: the API means UTC.
  const zoned = value.length > 10 && !/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? `${value}Z` : value;
  const date = new Date(zoned);
  if (Number.isNaN(date.getTime())) return 'invalid';
  // Date rolls 2026-02-30 over to March; the calendar date as written must survive the round trip.
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const local = new Date(Date.UTC(y, m - 1, d));
  if (local.getUTCFullYear() !== y || local.getUTCMonth() !== m - 1 || local.getUTCDate() !== d) {
    return 'invalid';
  }
  return date;
}

/**
 * from and to of a billing query: real instants, from before to, and (when maxDays is given) at most that
 * many days apart. Every refusal is a 400 VALIDATION_ERROR naming the field.
 */
export function billingRange(query: { from?: string; to?: string }, maxDays?: number): BillingRange {
  const from = instant(query.from);
  const to = instant(query.to);
  const details = [];
  if (from === 'invalid') details.push({ field: 'from', message: 'from is not a real date-time' });
  if (to === 'invalid') details.push({ field: 'to', message: 'to is not a real date-time' });
  if (details.length) throw AppError.validation(details);
  const range = { from: from as Date | null, to: to as Date | null };
  if (range.from && range.to) {
    if (range.from.getTime() >= range.to.getTime()) {
      throw AppError.validation([{ field: 'to', message: 'to must be after from' }]);
    }
    if (maxDays !== undefined && range.to.getTime() - range.from.getTime() > maxDays * DAY_MS) {
      throw AppError.validation([
        { field: 'to', message: `the range from..to must be at most ${maxDays} days` },
      ]);
    }
  }
  return range;
}
