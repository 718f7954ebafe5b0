import { DateTime } from 'luxon';
import {
  CALLING_WINDOW_PRESETS,
  CallingWindow,
  CallingWindowDto,
  isTimeZone,
  resolveCallingWindow,
  Weekday,
  WEEKDAYS,
} from '@vap/api';
import { describeLocal, localMidnight, nextLocalMidnight, windowVerdict } from './calling-window';

// Every instant below was checked against luxon (DateTime.fromISO(local, { zone }).toUTC()); the comments give
// the local wall clock the instant reads in the zone under test.

const at = (iso: string) => new Date(iso);
const win = (start: string, end: string, days: readonly Weekday[] = WEEKDAYS): CallingWindow => ({
  preset: null,
  days: [...days],
  start,
  end,
  timezone: 'UTC',
});
const everyDay = (start: string, end: string) => win(start, end);
const weekdays = (start: string, end: string) => win(start, end, ['mon', 'tue', 'wed', 'thu', 'fri']);
const preset = (name: 'IN' | 'US'): CallingWindow => {
  const resolved = resolveCallingWindow({ preset: name }, 'calling_window');
  if (!('window' in resolved)) throw new Error(`preset ${name} did not resolve`);
  return resolved.window;
};
/** null when open, else the ISO instant the window next opens. */
const opensAt = (w: CallingWindow, zone: string, now: string | Date): string | null => {
  const verdict = windowVerdict(w, zone, typeof now === 'string' ? at(now) : now);
  return verdict.open ? null : verdict.opensAt.toISOString();
};
/** The UTC instant of a local wall time in a zone, computed by luxon (for cross-checks, not expectations). */
const utcOf = (local: string, zone: string) => DateTime.fromISO(local, { zone }).toUTC().toISO();

describe('windowVerdict', () => {
  describe('the bounds of the window', () => {
    const w = everyDay('09:00', '17:00');

    it('opens at start inclusive', () => {
      // 2027-01-04 is a Monday.
      expect(opensAt(w, 'UTC', '2027-01-04T09:00:00.000Z')).toBeNull();
      expect(opensAt(w, 'UTC', '2027-01-04T08:59:59.999Z')).toBe('2027-01-04T09:00:00.000Z');
      expect(opensAt(w, 'UTC', '2027-01-04T08:00:00.000Z')).toBe('2027-01-04T09:00:00.000Z');
    });

    it('closes at end exclusive, judged to the minute', () => {
      expect(opensAt(w, 'UTC', '2027-01-04T16:59:00.000Z')).toBeNull();
      expect(opensAt(w, 'UTC', '2027-01-04T16:59:59.999Z')).toBeNull();
      expect(opensAt(w, 'UTC', '2027-01-04T17:00:00.000Z')).toBe('2027-01-05T09:00:00.000Z');
    });

    it("after the end, opens at the next day's start; before midnight and after it alike", () => {
      expect(opensAt(w, 'UTC', '2027-01-04T23:59:59.999Z')).toBe('2027-01-05T09:00:00.000Z');
      expect(opensAt(w, 'UTC', '2027-01-05T00:00:00.000Z')).toBe('2027-01-05T09:00:00.000Z');
    });

    it('is judged on the local clock of the zone, not UTC', () => {
      // Asia/Kolkata is UTC+05:30 all year: 09:00 IST is 03:30Z and 17:00 IST is 11:30Z.
      expect(opensAt(w, 'Asia/Kolkata', '2027-01-04T03:30:00Z')).toBeNull();
      expect(opensAt(w, 'Asia/Kolkata', '2027-01-04T03:29:59Z')).toBe('2027-01-04T03:30:00.000Z');
      expect(opensAt(w, 'Asia/Kolkata', '2027-01-04T11:29:59Z')).toBeNull();
      expect(opensAt(w, 'Asia/Kolkata', '2027-01-04T11:30:00Z')).toBe('2027-01-05T03:30:00.000Z');
      // 09:00Z is 14:30 IST: open, though it is the window's start in UTC.
      expect(opensAt(w, 'Asia/Kolkata', '2027-01-04T17:00:00Z')).toBe('2027-01-05T03:30:00.000Z');
    });

    it('takes an end of 24:00 as the end of the day', () => {
      const evening = everyDay('18:00', '24:00');
      expect(opensAt(evening, 'UTC', '2027-01-04T18:00:00Z')).toBeNull();
      expect(opensAt(evening, 'UTC', '2027-01-04T23:59:59.999Z')).toBeNull();
      expect(opensAt(evening, 'UTC', '2027-01-05T00:00:00Z')).toBe('2027-01-05T18:00:00.000Z');
      expect(opensAt(evening, 'UTC', '2027-01-05T17:59:00Z')).toBe('2027-01-05T18:00:00.000Z');
    });

    it('is always open for 00:00-24:00 every day, DST days included', () => {
      const always = everyDay('00:00', '24:00');
      for (const now of [
        '2027-01-04T00:00:00Z',
        '2027-03-14T06:59:59Z', // 01:59:59 EST, just before the jump
        '2027-03-14T07:00:00Z', // 03:00 EDT, just after it
        '2027-11-07T05:30:00Z', // 01:30 EDT
        '2027-11-07T06:30:00Z', // 01:30 EST
        '2027-11-08T04:59:59Z', // 23:59:59 EST
      ]) {
        expect(opensAt(always, 'America/New_York', now)).toBeNull();
      }
    });

    it('a window of 00:00-24:00 on some days opens at local midnight of the next allowed day', () => {
      const weekdaysAllDay = weekdays('00:00', '24:00');
      // 2027-01-08 23:59 EST is Friday: open. Saturday 00:00 EST (05:00Z) is closed until Monday 00:00 EST.
      expect(opensAt(weekdaysAllDay, 'America/New_York', '2027-01-09T04:59:00Z')).toBeNull();
      expect(opensAt(weekdaysAllDay, 'America/New_York', '2027-01-09T05:00:00Z')).toBe(
        '2027-01-11T05:00:00.000Z',
      );
    });
  });

  describe('days', () => {
    it('waits for the next allowed day: Friday 22:00 and Saturday open on Monday', () => {
      const w = weekdays('08:00', '21:00');
      // 2026-11-27 is a Friday; America/New_York is UTC-05:00 in November. Monday 08:00 EST is 13:00Z.
      expect(utcOf('2026-11-30T08:00', 'America/New_York')).toBe('2026-11-30T13:00:00.000Z');
      expect(opensAt(w, 'America/New_York', '2026-11-27T20:00:00Z')).toBeNull(); // Fri 15:00
      expect(opensAt(w, 'America/New_York', '2026-11-28T01:59:00Z')).toBeNull(); // Fri 20:59
      expect(opensAt(w, 'America/New_York', '2026-11-28T02:00:00Z')).toBe('2026-11-30T13:00:00.000Z'); // Fri 21:00
      expect(opensAt(w, 'America/New_York', '2026-11-28T03:00:00Z')).toBe('2026-11-30T13:00:00.000Z'); // Fri 22:00
      expect(opensAt(w, 'America/New_York', '2026-11-28T05:00:00Z')).toBe('2026-11-30T13:00:00.000Z'); // Sat 00:00
      expect(opensAt(w, 'America/New_York', '2026-11-28T17:00:00Z')).toBe('2026-11-30T13:00:00.000Z'); // Sat 12:00
      expect(opensAt(w, 'America/New_York', '2026-11-29T17:00:00Z')).toBe('2026-11-30T13:00:00.000Z'); // Sun 12:00
      expect(opensAt(w, 'America/New_York', '2026-11-30T12:59:00Z')).toBe('2026-11-30T13:00:00.000Z'); // Mon 07:59
      expect(opensAt(w, 'America/New_York', '2026-11-30T13:00:00Z')).toBeNull(); // Mon 08:00
    });

    it('judges the weekday by the local calendar, not the UTC one', () => {
      const w = weekdays('08:00', '21:00');
      // 2026-11-28T04:00Z is Saturday in UTC but Friday 23:00 in New York: closed by the hour, opens Monday.
      expect(opensAt(w, 'America/New_York', '2026-11-28T04:00:00Z')).toBe('2026-11-30T13:00:00.000Z');
      // 2026-11-30T02:00Z is Monday in UTC but Sunday 21:00 in New York: closed, though 21:00 < 24:00.
      expect(opensAt(weekdays('00:00', '24:00'), 'America/New_York', '2026-11-30T02:00:00Z')).toBe(
        '2026-11-30T05:00:00.000Z',
      );
    });

    it('skips the days in between: Mon/Wed/Fri after Monday closes opens on Wednesday', () => {
      const w = win('09:00', '17:00', ['mon', 'wed', 'fri']);
      // 2027-01-04 is a Monday.
      expect(opensAt(w, 'UTC', '2027-01-04T17:00:00Z')).toBe('2027-01-06T09:00:00.000Z');
      expect(opensAt(w, 'UTC', '2027-01-05T12:00:00Z')).toBe('2027-01-06T09:00:00.000Z'); // Tuesday
      expect(opensAt(w, 'UTC', '2027-01-08T17:00:00Z')).toBe('2027-01-11T09:00:00.000Z'); // Friday -> Monday
    });

    it('with a single day, after it closes waits a whole week', () => {
      const w = win('09:00', '17:00', ['mon']);
      expect(opensAt(w, 'UTC', '2027-01-04T08:00:00Z')).toBe('2027-01-04T09:00:00.000Z');
      expect(opensAt(w, 'UTC', '2027-01-04T12:00:00Z')).toBeNull();
      expect(opensAt(w, 'UTC', '2027-01-04T17:00:00Z')).toBe('2027-01-11T09:00:00.000Z');
      expect(opensAt(w, 'UTC', '2027-01-10T23:59:00Z')).toBe('2027-01-11T09:00:00.000Z'); // Sunday night
    });

    it('with weekends only, Monday to Friday wait for Saturday', () => {
      const w = win('10:00', '16:00', ['sat', 'sun']);
      expect(opensAt(w, 'UTC', '2027-01-04T12:00:00Z')).toBe('2027-01-09T10:00:00.000Z');
      expect(opensAt(w, 'UTC', '2027-01-09T12:00:00Z')).toBeNull();
      expect(opensAt(w, 'UTC', '2027-01-09T16:00:00Z')).toBe('2027-01-10T10:00:00.000Z');
      expect(opensAt(w, 'UTC', '2027-01-10T16:00:00Z')).toBe('2027-01-16T10:00:00.000Z');
    });

    it('does not depend on the order the days are listed in', () => {
      const w = win('09:00', '17:00', ['fri', 'mon']);
      expect(opensAt(w, 'UTC', '2027-01-05T12:00:00Z')).toBe('2027-01-08T09:00:00.000Z');
      expect(opensAt(w, 'UTC', '2027-01-08T17:00:00Z')).toBe('2027-01-11T09:00:00.000Z');
    });
  });

  describe('presets', () => {
    it('IN: 09:00-21:00 in Asia/Kolkata (+05:30, no DST), the same UTC hours in January and July', () => {
      const india = preset('IN');
      for (const day of ['2027-01-15', '2027-07-15']) {
        expect(utcOf(`${day}T09:00`, 'Asia/Kolkata')).toBe(`${day}T03:30:00.000Z`);
        expect(opensAt(india, 'Asia/Kolkata', `${day}T03:29:00Z`)).toBe(`${day}T03:30:00.000Z`); // 08:59
        expect(opensAt(india, 'Asia/Kolkata', `${day}T03:30:00Z`)).toBeNull(); // 09:00
        expect(opensAt(india, 'Asia/Kolkata', `${day}T15:29:00Z`)).toBeNull(); // 20:59
      }
      expect(opensAt(india, 'Asia/Kolkata', '2027-01-15T15:30:00Z')).toBe('2027-01-16T03:30:00.000Z'); // 21:00
      expect(opensAt(india, 'Asia/Kolkata', '2027-07-15T15:30:00Z')).toBe('2027-07-16T03:30:00.000Z');
      // Just after local midnight (18:30Z the day before) it opens the same local morning.
      expect(opensAt(india, 'Asia/Kolkata', '2027-07-14T18:30:00Z')).toBe('2027-07-15T03:30:00.000Z');
    });

    it('US: 08:00-21:00 in America/New_York, EST in winter and EDT in summer', () => {
      const us = preset('US');
      expect(opensAt(us, 'America/New_York', '2027-01-15T12:59:00Z')).toBe('2027-01-15T13:00:00.000Z'); // 07:59 EST
      expect(opensAt(us, 'America/New_York', '2027-01-15T13:00:00Z')).toBeNull(); // 08:00 EST
      expect(opensAt(us, 'America/New_York', '2027-01-16T01:59:00Z')).toBeNull(); // 20:59 EST
      expect(opensAt(us, 'America/New_York', '2027-01-16T02:00:00Z')).toBe('2027-01-16T13:00:00.000Z'); // 21:00
      expect(opensAt(us, 'America/New_York', '2027-07-15T11:59:00Z')).toBe('2027-07-15T12:00:00.000Z'); // 07:59 EDT
      expect(opensAt(us, 'America/New_York', '2027-07-15T12:00:00Z')).toBeNull(); // 08:00 EDT
      expect(opensAt(us, 'America/New_York', '2027-07-16T00:59:00Z')).toBeNull(); // 20:59 EDT
      expect(opensAt(us, 'America/New_York', '2027-07-16T01:00:00Z')).toBe('2027-07-16T12:00:00.000Z'); // 21:00
    });

    it('US hours applied in America/Los_Angeles: PST in winter and PDT in summer', () => {
      const us = preset('US');
      expect(utcOf('2027-01-15T08:00', 'America/Los_Angeles')).toBe('2027-01-15T16:00:00.000Z');
      expect(utcOf('2027-07-15T08:00', 'America/Los_Angeles')).toBe('2027-07-15T15:00:00.000Z');
      expect(opensAt(us, 'America/Los_Angeles', '2027-01-15T15:59:00Z')).toBe('2027-01-15T16:00:00.000Z');
      expect(opensAt(us, 'America/Los_Angeles', '2027-01-15T16:00:00Z')).toBeNull();
      expect(opensAt(us, 'America/Los_Angeles', '2027-01-16T05:00:00Z')).toBe('2027-01-16T16:00:00.000Z'); // 21:00
      expect(opensAt(us, 'America/Los_Angeles', '2027-07-15T14:59:00Z')).toBe('2027-07-15T15:00:00.000Z');
      expect(opensAt(us, 'America/Los_Angeles', '2027-07-15T15:00:00Z')).toBeNull();
      expect(opensAt(us, 'America/Los_Angeles', '2027-07-16T03:59:00Z')).toBeNull(); // 20:59 PDT
      expect(opensAt(us, 'America/Los_Angeles', '2027-07-16T04:00:00Z')).toBe('2027-07-16T15:00:00.000Z'); // 21:00
    });
  });

  describe('several zones at one instant', () => {
    it('2026-11-23T06:00Z: open in India, closed on both US coasts', () => {
      const india = preset('IN');
      const us = preset('US');
      const now = '2026-11-23T06:00:00Z'; // 11:30 Mon in Kolkata, 01:00 Mon in New York, 22:00 Sun in Los Angeles
      expect(opensAt(india, 'Asia/Kolkata', now)).toBeNull();
      expect(opensAt(us, 'America/New_York', now)).toBe('2026-11-23T13:00:00.000Z'); // 08:00 EST
      expect(opensAt(us, 'America/Los_Angeles', now)).toBe('2026-11-23T16:00:00.000Z'); // 08:00 PST
    });

    it('2027-07-15T14:00Z: open in New York and India, closed in Los Angeles', () => {
      const us = preset('US');
      const now = '2027-07-15T14:00:00Z'; // 10:00 EDT, 07:00 PDT, 19:30 IST
      expect(opensAt(us, 'America/New_York', now)).toBeNull();
      expect(opensAt(us, 'America/Los_Angeles', now)).toBe('2027-07-15T15:00:00.000Z');
      expect(opensAt(preset('IN'), 'Asia/Kolkata', now)).toBeNull();
    });

    it('2027-07-15T02:30Z: open only in Los Angeles; New York and India open at different instants', () => {
      const us = preset('US');
      const now = '2027-07-15T02:30:00Z'; // 22:30 Wed EDT, 19:30 Wed PDT, 08:00 Thu IST
      expect(opensAt(us, 'America/New_York', now)).toBe('2027-07-15T12:00:00.000Z');
      expect(opensAt(us, 'America/Los_Angeles', now)).toBeNull();
      expect(opensAt(preset('IN'), 'Asia/Kolkata', now)).toBe('2027-07-15T03:30:00.000Z');
      // The same window in the same zone gives the same answer whatever timezone the window carries.
      expect(opensAt({ ...us, timezone: 'Asia/Tokyo' }, 'America/Los_Angeles', now)).toBeNull();
    });
  });

  describe('the date line', () => {
    const w = weekdays('08:00', '19:00');

    it('one instant is Monday morning in Auckland and Sunday in Honolulu', () => {
      const now = '2027-03-14T20:00:00Z'; // Mon 09:00 NZDT (+13), Sun 10:00 HST (-10), Mon 10:00 in Kiritimati (+14)
      expect(opensAt(w, 'Pacific/Auckland', now)).toBeNull();
      expect(opensAt(w, 'Pacific/Honolulu', now)).toBe('2027-03-15T18:00:00.000Z'); // Mon 08:00 HST
      expect(opensAt(w, 'Pacific/Kiritimati', now)).toBeNull();
    });

    it('one instant is Saturday in Auckland and Friday in Honolulu', () => {
      const now = '2027-03-12T20:00:00Z'; // Sat 09:00 NZDT, Fri 10:00 HST
      expect(opensAt(w, 'Pacific/Auckland', now)).toBe('2027-03-14T19:00:00.000Z'); // Mon 08:00 NZDT
      expect(opensAt(w, 'Pacific/Honolulu', now)).toBeNull();
    });

    it('Sunday evening in Auckland opens Monday morning, before Sunday ends in UTC', () => {
      // 2027-03-14 06:55Z: Sunday 19:55 in Auckland, Saturday 20:55 in Honolulu.
      expect(opensAt(w, 'Pacific/Auckland', '2027-03-14T06:55:00Z')).toBe('2027-03-14T19:00:00.000Z');
      expect(opensAt(w, 'Pacific/Honolulu', '2027-03-14T06:55:00Z')).toBe('2027-03-15T18:00:00.000Z');
    });
  });

  describe('DST', () => {
    describe('US spring forward (America/New_York, 2027-03-14, 02:00 EST -> 03:00 EDT)', () => {
      it('an 08:00 window opens at 08:00 EDT (12:00Z), the day before at 08:00 EST (13:00Z)', () => {
        const w = everyDay('08:00', '21:00');
        expect(utcOf('2027-03-14T08:00', 'America/New_York')).toBe('2027-03-14T12:00:00.000Z');
        expect(utcOf('2027-03-13T08:00', 'America/New_York')).toBe('2027-03-13T13:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-03-14T06:55:00Z')).toBe('2027-03-14T12:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-03-13T06:55:00Z')).toBe('2027-03-13T13:00:00.000Z');
        // After the close on Saturday (21:00 EST = 02:00Z) the next opening is already EDT.
        expect(opensAt(w, 'America/New_York', '2027-03-14T02:00:00Z')).toBe('2027-03-14T12:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-03-14T11:59:00Z')).toBe('2027-03-14T12:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-03-14T12:00:00Z')).toBeNull();
        // 21:00 EDT is 01:00Z.
        expect(opensAt(w, 'America/New_York', '2027-03-15T00:59:00Z')).toBeNull();
        expect(opensAt(w, 'America/New_York', '2027-03-15T01:00:00Z')).toBe('2027-03-15T12:00:00.000Z');
      });

      it('a window starting at 02:30, inside the skipped hour, opens at the jump (03:00 EDT = 07:00Z)', () => {
        const w = everyDay('02:30', '21:00');
        expect(utcOf('2027-03-14T03:00', 'America/New_York')).toBe('2027-03-14T07:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-03-14T02:00:00Z')).toBe('2027-03-14T07:00:00.000Z'); // Sat 21:00
        expect(opensAt(w, 'America/New_York', '2027-03-14T06:00:00Z')).toBe('2027-03-14T07:00:00.000Z'); // 01:00
        expect(opensAt(w, 'America/New_York', '2027-03-14T06:55:00Z')).toBe('2027-03-14T07:00:00.000Z'); // 01:55
        expect(opensAt(w, 'America/New_York', '2027-03-14T06:59:59Z')).toBe('2027-03-14T07:00:00.000Z'); // 01:59:59
        expect(opensAt(w, 'America/New_York', '2027-03-14T07:00:00Z')).toBeNull(); // 03:00 EDT
        // The next day 02:30 exists again (EDT).
        expect(opensAt(w, 'America/New_York', '2027-03-15T01:00:00Z')).toBe('2027-03-15T06:30:00.000Z');
        // The day before, 02:30 EST.
        expect(opensAt(w, 'America/New_York', '2027-03-13T07:00:00Z')).toBe('2027-03-13T07:30:00.000Z');
      });

      it('windows starting at the jump itself (02:00) or at its far side (03:00) open at 07:00Z too', () => {
        expect(opensAt(everyDay('02:00', '21:00'), 'America/New_York', '2027-03-14T06:30:00Z')).toBe(
          '2027-03-14T07:00:00.000Z',
        );
        expect(opensAt(everyDay('03:00', '21:00'), 'America/New_York', '2027-03-14T06:30:00Z')).toBe(
          '2027-03-14T07:00:00.000Z',
        );
        // 03:01 EDT is one minute after the jump.
        expect(opensAt(everyDay('03:01', '21:00'), 'America/New_York', '2027-03-14T06:30:00Z')).toBe(
          '2027-03-14T07:01:00.000Z',
        );
      });

      it('a window ending inside the skipped hour closes at the jump', () => {
        const w = everyDay('00:00', '02:30');
        expect(opensAt(w, 'America/New_York', '2027-03-14T06:59:00Z')).toBeNull(); // 01:59 EST
        // 03:00 EDT is past 02:30; the next opening is Monday 00:00 EDT (04:00Z).
        expect(opensAt(w, 'America/New_York', '2027-03-14T07:00:00Z')).toBe('2027-03-15T04:00:00.000Z');
      });
    });

    describe('US fall back (America/New_York, 2027-11-07, 02:00 EDT -> 01:00 EST)', () => {
      it('an 08:00 window opens at 08:00 EST (13:00Z), the day before at 08:00 EDT (12:00Z)', () => {
        const w = everyDay('08:00', '21:00');
        expect(utcOf('2027-11-07T08:00', 'America/New_York')).toBe('2027-11-07T13:00:00.000Z');
        expect(utcOf('2027-11-06T08:00', 'America/New_York')).toBe('2027-11-06T12:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-11-07T05:30:00Z')).toBe('2027-11-07T13:00:00.000Z'); // 01:30 EDT
        expect(opensAt(w, 'America/New_York', '2027-11-07T06:30:00Z')).toBe('2027-11-07T13:00:00.000Z'); // 01:30 EST
        expect(opensAt(w, 'America/New_York', '2027-11-06T11:00:00Z')).toBe('2027-11-06T12:00:00.000Z');
        // Saturday closes at 21:00 EDT (01:00Z); Sunday opens at 08:00 EST.
        expect(opensAt(w, 'America/New_York', '2027-11-07T01:00:00Z')).toBe('2027-11-07T13:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-11-07T12:59:00Z')).toBe('2027-11-07T13:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-11-07T13:00:00Z')).toBeNull();
        // Sunday closes at 21:00 EST (02:00Z Monday).
        expect(opensAt(w, 'America/New_York', '2027-11-08T01:59:00Z')).toBeNull();
        expect(opensAt(w, 'America/New_York', '2027-11-08T02:00:00Z')).toBe('2027-11-08T13:00:00.000Z');
      });

      it('a 01:00-01:30 window is judged by the wall clock during both passes of the repeated hour', () => {
        const w = everyDay('01:00', '01:30');
        // Before the first pass it opens at 01:00 EDT (05:00Z), the earlier of the two 01:00s.
        expect(opensAt(w, 'America/New_York', '2027-11-07T04:30:00Z')).toBe('2027-11-07T05:00:00.000Z'); // 00:30 EDT
        expect(opensAt(w, 'America/New_York', '2027-11-07T05:00:00Z')).toBeNull(); // 01:00 EDT
        expect(opensAt(w, 'America/New_York', '2027-11-07T05:10:00Z')).toBeNull(); // 01:10 EDT
        expect(opensAt(w, 'America/New_York', '2027-11-07T05:29:59Z')).toBeNull(); // 01:29:59 EDT
        expect(opensAt(w, 'America/New_York', '2027-11-07T06:00:00Z')).toBeNull(); // 01:00 EST
        expect(opensAt(w, 'America/New_York', '2027-11-07T06:10:00Z')).toBeNull(); // 01:10 EST
        expect(opensAt(w, 'America/New_York', '2027-11-07T06:29:59Z')).toBeNull(); // 01:29:59 EST
        // After the second pass: Monday 01:00 EST (06:00Z).
        expect(opensAt(w, 'America/New_York', '2027-11-07T06:30:00Z')).toBe('2027-11-08T06:00:00.000Z');
        expect(opensAt(w, 'America/New_York', '2027-11-07T06:40:00Z')).toBe('2027-11-08T06:00:00.000Z');
      });

      // Between the two passes (01:30-01:59 EDT) the window reopens at 01:00 EST, 06:00Z the same day.
      it('between the two passes it reopens at the second 01:00 (06:00Z), not a day later', () => {
        expect(opensAt(everyDay('01:00', '01:30'), 'America/New_York', '2027-11-07T05:40:00Z')).toBe(
          '2027-11-07T06:00:00.000Z',
        );
      });

      // The same bug with an ordinary window in Auckland (NZ falls back 03:00 NZDT -> 02:00 NZST on
      // 2027-04-04): at the second 02:00 (14:00Z) a 02:30 window reopens at 02:30 NZST (14:30Z), and
      // windowVerdict says open then, but opensAt names the next day.
      it('Auckland fall back: the second 02:30 (NZST) is open by the wall clock', () => {
        expect(utcOf('2027-04-04T02:30', 'Pacific/Auckland')).toBe('2027-04-03T13:30:00.000Z'); // first pass
        expect(opensAt(everyDay('02:30', '21:00'), 'Pacific/Auckland', '2027-04-03T13:30:00Z')).toBeNull();
        expect(opensAt(everyDay('02:30', '21:00'), 'Pacific/Auckland', '2027-04-03T14:30:00Z')).toBeNull();
      });

      it('Auckland fall back, a 02:30-21:00 window at the second 02:00 opens at 02:30 NZST', () => {
        expect(opensAt(everyDay('02:30', '21:00'), 'Pacific/Auckland', '2027-04-03T14:00:00Z')).toBe(
          '2027-04-03T14:30:00.000Z',
        );
      });
    });

    describe('Europe/London (spring forward 2027-03-28 01:00 GMT -> 02:00 BST; fall back 2027-10-31)', () => {
      it('a 09:00 window opens at 09:00 BST (08:00Z), the day before at 09:00 GMT (09:00Z)', () => {
        const w = everyDay('09:00', '17:00');
        expect(utcOf('2027-03-28T09:00', 'Europe/London')).toBe('2027-03-28T08:00:00.000Z');
        expect(opensAt(w, 'Europe/London', '2027-03-28T00:30:00Z')).toBe('2027-03-28T08:00:00.000Z');
        expect(opensAt(w, 'Europe/London', '2027-03-27T00:30:00Z')).toBe('2027-03-27T09:00:00.000Z');
        // Saturday closes at 17:00 GMT; Sunday opens at 09:00 BST.
        expect(opensAt(w, 'Europe/London', '2027-03-27T17:00:00Z')).toBe('2027-03-28T08:00:00.000Z');
        expect(opensAt(w, 'Europe/London', '2027-03-28T15:59:00Z')).toBeNull(); // 16:59 BST
        expect(opensAt(w, 'Europe/London', '2027-03-28T16:00:00Z')).toBe('2027-03-29T08:00:00.000Z'); // 17:00 BST
      });

      it('a window starting inside the skipped hour (01:30) opens at 02:00 BST (01:00Z)', () => {
        expect(opensAt(everyDay('01:30', '04:00'), 'Europe/London', '2027-03-28T00:30:00Z')).toBe(
          '2027-03-28T01:00:00.000Z',
        );
        expect(opensAt(everyDay('01:30', '04:00'), 'Europe/London', '2027-03-28T01:00:00Z')).toBeNull();
      });

      it('after fall back 09:00 is GMT again (09:00Z), the day before BST (08:00Z)', () => {
        const w = everyDay('09:00', '17:00');
        expect(opensAt(w, 'Europe/London', '2027-10-30T07:00:00Z')).toBe('2027-10-30T08:00:00.000Z');
        expect(opensAt(w, 'Europe/London', '2027-10-30T16:00:00Z')).toBe('2027-10-31T09:00:00.000Z'); // 17:00 BST
      });
    });

    it('Lord Howe shifts by 30 minutes (2027-10-03 02:00 -> 02:30): a 02:15 start opens at the jump', () => {
      expect(utcOf('2027-10-03T02:30', 'Australia/Lord_Howe')).toBe('2027-10-02T15:30:00.000Z');
      expect(opensAt(everyDay('02:15', '05:00'), 'Australia/Lord_Howe', '2027-10-02T14:00:00Z')).toBe(
        '2027-10-02T15:30:00.000Z',
      );
    });

    it('Santiago skips local midnight (2027-09-05 00:00 -> 01:00): a 00:30 start opens at 01:00 (04:00Z)', () => {
      expect(opensAt(everyDay('00:30', '05:00'), 'America/Santiago', '2027-09-04T12:00:00Z')).toBe(
        '2027-09-05T04:00:00.000Z',
      );
    });

    // A window lying wholly inside the skipped hour (02:00-02:30 on the spring-forward day) has no minute that
    // day: the jump (03:00 EDT) is past its end, so it next opens on Monday.
    it('a window wholly inside the skipped hour opens the next day, not at the jump', () => {
      // Monday 02:00 EDT is 06:00Z.
      expect(opensAt(everyDay('02:00', '02:30'), 'America/New_York', '2027-03-14T06:30:00Z')).toBe(
        '2027-03-15T06:00:00.000Z',
      );
    });
  });

  describe('invariants across DST weeks', () => {
    // Sampled every 10 minutes for two days around each transition: when closed, opensAt is after now, the
    // window is open at opensAt and closed a minute before, and no sample between now and opensAt is open.
    const cases: Array<[string, CallingWindow, string, string]> = [
      ['US preset, New York spring', preset('US'), 'America/New_York', '2027-03-13T00:00:00Z'],
      ['US preset, New York fall', preset('US'), 'America/New_York', '2027-11-06T00:00:00Z'],
      ['US preset, Los Angeles spring', preset('US'), 'America/Los_Angeles', '2027-03-13T00:00:00Z'],
      ['IN preset, Kolkata', preset('IN'), 'Asia/Kolkata', '2027-03-13T00:00:00Z'],
      ['weekdays 09-17, London spring', weekdays('09:00', '17:00'), 'Europe/London', '2027-03-26T00:00:00Z'],
      ['weekdays 09-17, London fall', weekdays('09:00', '17:00'), 'Europe/London', '2027-10-29T00:00:00Z'],
      [
        '02:30-21:00, New York spring',
        everyDay('02:30', '21:00'),
        'America/New_York',
        '2027-03-13T00:00:00Z',
      ],
      ['18:00-24:00, Auckland fall', everyDay('18:00', '24:00'), 'Pacific/Auckland', '2027-04-02T00:00:00Z'],
    ];

    it.each(cases)('%s', (_name, w, zone, from) => {
      const step = 10 * 60_000;
      const start = Date.parse(from);
      const samples = Array.from(
        { length: (3 * 24 * 60 * 60_000) / step },
        (_, i) => new Date(start + i * step),
      );
      const open = samples.map((t) => windowVerdict(w, zone, t).open);
      samples.forEach((now, i) => {
        const verdict = windowVerdict(w, zone, now);
        if (verdict.open) return;
        const opening = verdict.opensAt.getTime();
        expect(opening).toBeGreaterThan(now.getTime());
        expect(windowVerdict(w, zone, verdict.opensAt).open).toBe(true);
        expect(windowVerdict(w, zone, new Date(opening - 60_000)).open).toBe(false);
        const firstOpen = samples.findIndex((t, j) => j > i && open[j]);
        if (firstOpen >= 0) expect(samples[firstOpen].getTime()).toBeGreaterThanOrEqual(opening);
      });
    });
  });
});

describe('local midnights', () => {
  it('follow the zone on an ordinary day (Asia/Kolkata, +05:30)', () => {
    const now = at('2026-11-23T20:00:00Z'); // 01:30 on the 24th in Kolkata
    expect(localMidnight('Asia/Kolkata', now).toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(nextLocalMidnight('Asia/Kolkata', now).toISOString()).toBe('2026-11-24T18:30:00.000Z');
    const earlier = at('2026-11-23T18:29:59Z'); // 23:59:59 on the 23rd
    expect(localMidnight('Asia/Kolkata', earlier).toISOString()).toBe('2026-11-22T18:30:00.000Z');
    expect(nextLocalMidnight('Asia/Kolkata', earlier).toISOString()).toBe('2026-11-23T18:30:00.000Z');
  });

  it('at midnight exactly, the day starts now and the next starts a day later', () => {
    const midnight = at('2026-11-23T18:30:00Z');
    expect(localMidnight('Asia/Kolkata', midnight).toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(nextLocalMidnight('Asia/Kolkata', midnight).toISOString()).toBe('2026-11-24T18:30:00.000Z');
    expect(localMidnight('UTC', at('2027-01-04T00:00:00Z')).toISOString()).toBe('2027-01-04T00:00:00.000Z');
    expect(nextLocalMidnight('UTC', at('2027-01-04T00:00:00Z')).toISOString()).toBe(
      '2027-01-05T00:00:00.000Z',
    );
  });

  it('span 23 hours on a spring-forward day (New York 2027-03-14: 05:00Z to 04:00Z)', () => {
    for (const now of [
      '2027-03-14T05:00:00Z',
      '2027-03-14T06:59:00Z',
      '2027-03-14T12:00:00Z',
      '2027-03-15T03:59:59Z',
    ]) {
      const start = localMidnight('America/New_York', at(now));
      const next = nextLocalMidnight('America/New_York', at(now));
      expect(start.toISOString()).toBe('2027-03-14T05:00:00.000Z');
      expect(next.toISOString()).toBe('2027-03-15T04:00:00.000Z');
      expect(next.getTime() - start.getTime()).toBe(23 * 3600_000);
    }
    expect(localMidnight('America/New_York', at('2027-03-15T04:00:00Z')).toISOString()).toBe(
      '2027-03-15T04:00:00.000Z',
    );
  });

  it('span 25 hours on a fall-back day (New York 2027-11-07: 04:00Z to 05:00Z)', () => {
    for (const now of [
      '2027-11-07T04:00:00Z',
      '2027-11-07T05:30:00Z',
      '2027-11-07T06:30:00Z',
      '2027-11-08T04:59:59Z',
    ]) {
      const start = localMidnight('America/New_York', at(now));
      const next = nextLocalMidnight('America/New_York', at(now));
      expect(start.toISOString()).toBe('2027-11-07T04:00:00.000Z');
      expect(next.toISOString()).toBe('2027-11-08T05:00:00.000Z');
      expect(next.getTime() - start.getTime()).toBe(25 * 3600_000);
    }
  });

  it('span 23 hours in London on 2027-03-28 (00:00Z to 23:00Z) and 25 on 2027-10-31', () => {
    expect(localMidnight('Europe/London', at('2027-03-28T12:00:00Z')).toISOString()).toBe(
      '2027-03-28T00:00:00.000Z',
    );
    expect(nextLocalMidnight('Europe/London', at('2027-03-28T12:00:00Z')).toISOString()).toBe(
      '2027-03-28T23:00:00.000Z',
    );
    expect(localMidnight('Europe/London', at('2027-10-31T12:00:00Z')).toISOString()).toBe(
      '2027-10-30T23:00:00.000Z',
    );
    expect(nextLocalMidnight('Europe/London', at('2027-10-31T12:00:00Z')).toISOString()).toBe(
      '2027-11-01T00:00:00.000Z',
    );
  });

  it('start a day at 01:00 where midnight itself is skipped (Santiago, 2027-09-05)', () => {
    expect(localMidnight('America/Santiago', at('2027-09-05T12:00:00Z')).toISOString()).toBe(
      '2027-09-05T04:00:00.000Z',
    );
    expect(nextLocalMidnight('America/Santiago', at('2027-09-04T12:00:00Z')).toISOString()).toBe(
      '2027-09-05T04:00:00.000Z',
    );
  });

  it('differ by zone for one instant across the date line', () => {
    const now = at('2027-03-14T20:00:00Z'); // Monday 09:00 in Auckland, Sunday 10:00 in Honolulu
    expect(localMidnight('Pacific/Auckland', now).toISOString()).toBe('2027-03-14T11:00:00.000Z');
    expect(nextLocalMidnight('Pacific/Auckland', now).toISOString()).toBe('2027-03-15T11:00:00.000Z');
    expect(localMidnight('Pacific/Honolulu', now).toISOString()).toBe('2027-03-14T10:00:00.000Z');
    expect(nextLocalMidnight('Pacific/Honolulu', now).toISOString()).toBe('2027-03-15T10:00:00.000Z');
  });
});

describe('describeLocal', () => {
  it('gives the weekday, local date and time, and the zone', () => {
    expect(describeLocal(at('2026-11-23T03:30:00Z'), 'Asia/Kolkata')).toBe(
      'Mon 2026-11-23 09:00 Asia/Kolkata',
    );
    expect(describeLocal(at('2027-03-14T07:00:00Z'), 'America/New_York')).toBe(
      'Sun 2027-03-14 03:00 America/New_York',
    );
    expect(describeLocal(at('2027-03-14T20:00:00Z'), 'Pacific/Auckland')).toBe(
      'Mon 2027-03-15 09:00 Pacific/Auckland',
    );
    expect(describeLocal(at('2027-03-14T20:00:00Z'), 'Pacific/Honolulu')).toBe(
      'Sun 2027-03-14 10:00 Pacific/Honolulu',
    );
    expect(describeLocal(at('2027-01-04T23:59:59Z'), 'UTC')).toBe('Mon 2027-01-04 23:59 UTC');
  });

  it('shows the same wall clock for both passes of a repeated hour', () => {
    expect(describeLocal(at('2027-11-07T05:30:00Z'), 'America/New_York')).toBe(
      'Sun 2027-11-07 01:30 America/New_York',
    );
    expect(describeLocal(at('2027-11-07T06:30:00Z'), 'America/New_York')).toBe(
      'Sun 2027-11-07 01:30 America/New_York',
    );
  });
});

describe('resolveCallingWindow', () => {
  const resolve = (input: CallingWindowDto) => resolveCallingWindow(input, 'calling_window');
  const problemsOf = (input: CallingWindowDto) => {
    const resolved = resolve(input);
    return 'problems' in resolved ? resolved.problems : [];
  };
  const fieldsOf = (input: CallingWindowDto) => problemsOf(input).map((p) => p.field);

  it("fills a preset's values", () => {
    expect(resolve({ preset: 'IN' })).toEqual({
      window: { preset: 'IN', days: [...WEEKDAYS], start: '09:00', end: '21:00', timezone: 'Asia/Kolkata' },
    });
    expect(resolve({ preset: 'US' })).toEqual({
      window: {
        preset: 'US',
        days: [...WEEKDAYS],
        start: '08:00',
        end: '21:00',
        timezone: 'America/New_York',
      },
    });
    expect(CALLING_WINDOW_PRESETS.IN.timezone).toBe('Asia/Kolkata');
    expect(CALLING_WINDOW_PRESETS.US.timezone).toBe('America/New_York');
  });

  it('does not hand out the preset’s own days array', () => {
    const resolved = resolve({ preset: 'IN' });
    if (!('window' in resolved)) throw new Error('expected a window');
    expect(resolved.window.days).not.toBe(CALLING_WINDOW_PRESETS.IN.days);
    resolved.window.days.pop();
    expect(CALLING_WINDOW_PRESETS.IN.days).toHaveLength(7);
  });

  it("lets each given field replace the preset's value", () => {
    expect(resolve({ preset: 'US', start: '09:00' })).toEqual({
      window: {
        preset: 'US',
        days: [...WEEKDAYS],
        start: '09:00',
        end: '21:00',
        timezone: 'America/New_York',
      },
    });
    expect(resolve({ preset: 'US', end: '20:00' })).toEqual({
      window: {
        preset: 'US',
        days: [...WEEKDAYS],
        start: '08:00',
        end: '20:00',
        timezone: 'America/New_York',
      },
    });
    expect(resolve({ preset: 'US', timezone: 'America/Los_Angeles' })).toEqual({
      window: {
        preset: 'US',
        days: [...WEEKDAYS],
        start: '08:00',
        end: '21:00',
        timezone: 'America/Los_Angeles',
      },
    });
    expect(resolve({ preset: 'IN', days: ['sat'] })).toEqual({
      window: { preset: 'IN', days: ['sat'], start: '09:00', end: '21:00', timezone: 'Asia/Kolkata' },
    });
    expect(resolve({ preset: 'US', days: ['fri', 'mon'], end: '20:00' })).toEqual({
      window: {
        preset: 'US',
        days: ['mon', 'fri'],
        start: '08:00',
        end: '20:00',
        timezone: 'America/New_York',
      },
    });
  });

  it('takes explicit fields without a preset, every day by default', () => {
    expect(resolve({ start: '10:00', end: '18:00', timezone: 'Europe/London' })).toEqual({
      window: { preset: null, days: [...WEEKDAYS], start: '10:00', end: '18:00', timezone: 'Europe/London' },
    });
    expect(resolve({ preset: null, start: '00:00', end: '24:00', timezone: 'Asia/Calcutta' })).toEqual({
      window: { preset: null, days: [...WEEKDAYS], start: '00:00', end: '24:00', timezone: 'Asia/Calcutta' },
    });
  });

  it('returns days in week order, Monday first and Sunday last', () => {
    const resolved = resolve({
      start: '09:00',
      end: '17:00',
      timezone: 'UTC',
      days: ['sun', 'wed', 'mon', 'sat'],
    });
    expect(resolved).toEqual({
      window: expect.objectContaining({ days: ['mon', 'wed', 'sat', 'sun'] }),
    });
  });

  it('names each of start, end and timezone missing without a preset', () => {
    expect(fieldsOf({})).toEqual(['calling_window.start', 'calling_window.end', 'calling_window.timezone']);
    expect(fieldsOf({ days: ['mon'] })).toEqual([
      'calling_window.start',
      'calling_window.end',
      'calling_window.timezone',
    ]);
    expect(fieldsOf({ end: '17:00', timezone: 'UTC' })).toEqual(['calling_window.start']);
    expect(fieldsOf({ start: '09:00', timezone: 'UTC' })).toEqual(['calling_window.end']);
    expect(fieldsOf({ start: '09:00', end: '17:00' })).toEqual(['calling_window.timezone']);
    expect(problemsOf({ start: '09:00', end: '17:00' })).toEqual([
      { field: 'calling_window.timezone', message: 'calling_window.timezone is required without a preset' },
    ]);
  });

  it('refuses an end at or before the start', () => {
    expect(problemsOf({ start: '21:00', end: '09:00', timezone: 'UTC' })).toEqual([
      { field: 'calling_window.end', message: 'calling_window.end must be after calling_window.start' },
    ]);
    expect(fieldsOf({ start: '09:00', end: '09:00', timezone: 'UTC' })).toEqual(['calling_window.end']);
    expect(fieldsOf({ start: '09:00', end: '09:01', timezone: 'UTC' })).toEqual([]);
    // A preset's start against a given end, and a given start against the preset's end.
    expect(fieldsOf({ preset: 'US', end: '07:00' })).toEqual(['calling_window.end']);
    expect(fieldsOf({ preset: 'IN', start: '21:00' })).toEqual(['calling_window.end']);
    expect(fieldsOf({ preset: 'IN', start: '23:59', end: '24:00' })).toEqual([]);
  });

  it('refuses a time zone the runtime does not know, with or without a preset', () => {
    expect(problemsOf({ start: '09:00', end: '21:00', timezone: 'Mars/Olympus' })).toEqual([
      {
        field: 'calling_window.timezone',
        message: 'calling_window.timezone must be an IANA time zone such as Asia/Kolkata',
      },
    ]);
    expect(fieldsOf({ preset: 'IN', timezone: 'India' })).toEqual(['calling_window.timezone']);
    expect(fieldsOf({ preset: 'IN', timezone: '' })).toEqual(['calling_window.timezone']);
  });

  it('reports every problem at once, under the field it is given', () => {
    expect(
      resolveCallingWindow({ start: '21:00', end: '09:00', timezone: 'Nowhere/Land' }, 'rules.window'),
    ).toEqual({
      problems: [
        {
          field: 'rules.window.timezone',
          message: 'rules.window.timezone must be an IANA time zone such as Asia/Kolkata',
        },
        { field: 'rules.window.end', message: 'rules.window.end must be after rules.window.start' },
      ],
    });
  });

  it('resolves windows windowVerdict can apply directly', () => {
    const resolved = resolve({ preset: 'US', days: ['mon', 'tue', 'wed', 'thu', 'fri'] });
    if (!('window' in resolved)) throw new Error('expected a window');
    expect(isTimeZone(resolved.window.timezone)).toBe(true);
    // Saturday 2026-11-28 12:00 EST: opens Monday 08:00 EST.
    expect(opensAt(resolved.window, resolved.window.timezone, '2026-11-28T17:00:00Z')).toBe(
      '2026-11-30T13:00:00.000Z',
    );
  });
});

describe('isTimeZone', () => {
  it('knows IANA names, including old aliases, and refuses anything else', () => {
    for (const zone of ['UTC', 'Asia/Kolkata', 'Asia/Calcutta', 'America/New_York', 'Pacific/Auckland']) {
      expect(isTimeZone(zone)).toBe(true);
    }
    for (const zone of ['', 'Mars/Olympus', 'India', null, undefined, 42, 'x'.repeat(65)]) {
      expect(isTimeZone(zone)).toBe(false);
    }
  });
});
