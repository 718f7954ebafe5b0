import { DateTime } from 'luxon';
import { CallingWindow, minutesOf, WEEKDAYS } from '@vap/api';

export type WindowVerdict = { open: true } | { open: false; opensAt: Date };

const wallMinutes = (t: DateTime) => t.hour * 60 + t.minute;
const weekdayOf = (t: DateTime) => WEEKDAYS[t.weekday - 1];

/**
 * Whether `now` falls inside the window in `zone`, judged by the local wall clock (a window of 08:00-21:00
 * is 08:00-21:00 on the day's clock whether the day has 23, 24 or 25 hours); if not, the instant it next
 * opens. Pure: the caller supplies the time.
 */
export function windowVerdict(window: CallingWindow, zone: string, now: Date): WindowVerdict {
  const local = DateTime.fromJSDate(now, { zone });
  const start = minutesOf(window.start);
  if (isOpen(window, local)) return { open: true };
  for (let day = 0; day <= 8; day += 1) {
    const date = local.startOf('day').plus({ days: day });
    if (!window.days.includes(weekdayOf(date))) continue;
    // The first instant that reads `start`, and on a fall-back day the second one too; an opening that lands
    // past the window's end (a window inside a skipped hour) is no opening.
    const first = openingOn(date, start);
    const repeat = first.offset - first.plus({ hours: 3 }).offset;
    const second = repeat > 0 ? first.plus({ minutes: repeat }) : null;
    for (const opening of second ? [first, second] : [first]) {
      if (opening > local && isOpen(window, opening)) return { open: false, opensAt: opening.toJSDate() };
    }
  }
  // Unreachable for a window with at least one day that exists on the clock: a week holds an opening.
  throw new Error('calling window has no opening within a week');
}

function isOpen(window: CallingWindow, t: DateTime): boolean {
  const minutes = wallMinutes(t);
  return (
    window.days.includes(weekdayOf(t)) &&
    minutes >= minutesOf(window.start) &&
    minutes < minutesOf(window.end)
  );
}

/**
 * The first instant of `date` whose wall clock reads `start` or later. On a spring-forward day a start inside
 * the skipped hour (02:30 where 02:00 jumps to 03:00) opens at the jump, not an hour after it.
 */
function openingOn(date: DateTime, start: number): DateTime {
  let opening = date.set({ hour: Math.floor(start / 60), minute: start % 60 });
  if (wallMinutes(opening) === start && opening.hasSame(date, 'day')) return opening;
  // The wall time does not exist today: step back to the transition (gaps are at most an hour or two).
  for (let i = 0; i < 180; i += 1) {
    const earlier = opening.minus({ minutes: 1 });
    if (!earlier.hasSame(date, 'day') || wallMinutes(earlier) < start) break;
    opening = earlier;
  }
  return opening;
}

/** The start of the calendar day after `now`'s in `zone` (the day caps' reset). */
export function nextLocalMidnight(zone: string, now: Date): Date {
  return DateTime.fromJSDate(now, { zone }).startOf('day').plus({ days: 1 }).toJSDate();
}

/** The start of `now`'s calendar day in `zone`. */
export function localMidnight(zone: string, now: Date): Date {
  return DateTime.fromJSDate(now, { zone }).startOf('day').toJSDate();
}

/** "Mon 09:00 Asia/Kolkata" style, for messages and the decision log. */
export function describeLocal(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat("ccc yyyy-LL-dd HH:mm '" + zone + "'");
}
