import { DateTime } from 'luxon';
import { isTimeZone } from '@vap/api';
import { calleeZone, zoneOfNumber, zonesOfNumber } from './callee-zone';

// Fixed instants: NOW is northern winter (New York EST, London GMT, Denver and Phoenix both -07:00); SUMMER is
// northern summer (EDT, BST, Denver -06:00 while Phoenix stays -07:00).
const NOW = new Date('2026-11-23T06:00:00Z');
const WINTER = new Date('2027-01-15T12:00:00Z');
const SUMMER = new Date('2027-07-15T12:00:00Z');
const offsetOf = (zone: string | null, at: Date = NOW) =>
  zone ? DateTime.fromJSDate(at, { zone }).offset : null;

describe('zonesOfNumber', () => {
  it("gives the zones of the number's longest known prefix", () => {
    expect(zonesOfNumber('+919876543210')).toEqual(['Asia/Calcutta']);
    expect(zonesOfNumber('+12125550123')).toEqual(['America/New_York']);
    expect(zonesOfNumber('+14155550123')).toEqual(['America/Los_Angeles']);
    // +1 928 is Arizona (Phoenix) but +1 928 283 is listed under both Denver and Phoenix.
    expect(zonesOfNumber('+19285550000')).toEqual(['America/Phoenix']);
    expect(zonesOfNumber('+19282830000')).toEqual(['America/Denver', 'America/Phoenix']);
  });

  it('gives several zones for a range that spans them', () => {
    const uk = zonesOfNumber('+447911123456');
    expect(uk.length).toBeGreaterThan(1);
    expect(uk).toContain('Europe/London');
    // US toll-free falls back to +1, the whole North American plan.
    const tollFree = zonesOfNumber('+18005550100');
    expect(tollFree.length).toBeGreaterThan(10);
    expect(tollFree).toEqual(
      expect.arrayContaining(['America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu']),
    );
  });

  it('gives only zones the runtime knows', () => {
    for (const number of ['+919876543210', '+447911123456', '+18005550100', '+61812345678', '+74951234567']) {
      const zones = zonesOfNumber(number);
      expect(zones.length).toBeGreaterThan(0);
      expect(zones.every((zone) => isTimeZone(zone))).toBe(true);
    }
  });

  it('reads the number with or without its +', () => {
    expect(zonesOfNumber('919876543210')).toEqual(zonesOfNumber('+919876543210'));
    expect(zonesOfNumber('12125550123')).toEqual(['America/New_York']);
  });

  it('gives none for an unknown prefix or an empty number', () => {
    for (const number of ['+999', '+9', '+0', '+0123456789', '+2', '+', '']) {
      expect(zonesOfNumber(number)).toEqual([]);
    }
  });

  it('answers the same on repeated calls (the table is read once)', () => {
    const first = zonesOfNumber('+447911123456');
    expect(zonesOfNumber('+447911123456')).toEqual(first);
    expect(zonesOfNumber('+12125550123')).toEqual(['America/New_York']);
  });
});

describe('zoneOfNumber', () => {
  it("is the range's one zone", () => {
    // India: Asia/Calcutta is the table's (older) name for Asia/Kolkata; both are +05:30.
    const india = zoneOfNumber('+919876543210', NOW);
    expect(['Asia/Calcutta', 'Asia/Kolkata']).toContain(india);
    expect(offsetOf(india)).toBe(330);
    expect(offsetOf(india, SUMMER)).toBe(330);
    expect(zoneOfNumber('+12125550123', NOW)).toBe('America/New_York');
    expect(zoneOfNumber('+14155550123', NOW)).toBe('America/Los_Angeles');
    expect(zoneOfNumber('+6421234567', NOW)).toBe('Pacific/Auckland');
    expect(zoneOfNumber('+6433050000', NOW)).toBe('Pacific/Chatham');
    expect(zoneOfNumber('+81312345678', NOW)).toBe('Asia/Tokyo');
    expect(zoneOfNumber('+16025550000', NOW)).toBe('America/Phoenix');
  });

  it('is the same whatever the season for a single-zone range', () => {
    for (const at of [NOW, WINTER, SUMMER]) {
      expect(zoneOfNumber('+12125550123', at)).toBe('America/New_York');
      expect(zoneOfNumber('+14155550123', at)).toBe('America/Los_Angeles');
    }
  });

  it('resolves the UK, whose zones share one clock, to a zone with the London offset in winter and summer', () => {
    expect(zonesOfNumber('+447911123456').length).toBeGreaterThan(1);
    const winter = zoneOfNumber('+447911123456', NOW);
    expect(winter).not.toBeNull();
    expect(offsetOf(winter, NOW)).toBe(offsetOf('Europe/London', NOW));
    expect(offsetOf(winter, NOW)).toBe(0);
    const summer = zoneOfNumber('+447911123456', SUMMER);
    expect(summer).not.toBeNull();
    expect(offsetOf(summer, SUMMER)).toBe(offsetOf('Europe/London', SUMMER));
    expect(offsetOf(summer, SUMMER)).toBe(60);
    // The zone it picks is one of the range's zones.
    expect(zonesOfNumber('+447911123456')).toContain(winter);
  });

  it('is none for a range across clocks: US toll-free, the bare +1 plan, Australia-wide, New Zealand-wide', () => {
    expect(zoneOfNumber('+18005550100', NOW)).toBeNull();
    expect(zoneOfNumber('+18885550100', SUMMER)).toBeNull();
    expect(zoneOfNumber('+1', NOW)).toBeNull();
    expect(zoneOfNumber('+61812345678', NOW)).toBeNull();
    // +64 alone lists Auckland (+13:00) and Chatham (+13:45).
    expect(zonesOfNumber('+64')).toEqual(['Pacific/Auckland', 'Pacific/Chatham']);
    expect(zoneOfNumber('+64', NOW)).toBeNull();
  });

  it('judges the shared clock at `now`: Denver and Phoenix agree in winter, not in summer', () => {
    expect(offsetOf('America/Denver', WINTER)).toBe(offsetOf('America/Phoenix', WINTER));
    expect(offsetOf('America/Denver', SUMMER)).not.toBe(offsetOf('America/Phoenix', SUMMER));
    expect(zoneOfNumber('+19282830000', WINTER)).toBe('America/Denver');
    expect(zoneOfNumber('+19282830000', SUMMER)).toBeNull();
  });

  it('is none for an unknown or short number', () => {
    for (const number of ['+999', '+9', '+0', '+2', '+', '']) {
      expect(zoneOfNumber(number, NOW)).toBeNull();
    }
  });
});

describe('calleeZone', () => {
  it('trusts the number first, over the contact and window zones', () => {
    expect(calleeZone('+12125550123', NOW, 'Asia/Tokyo', 'Europe/Paris')).toEqual({
      zone: 'America/New_York',
      source: 'number',
    });
    expect(calleeZone('+14155550123', NOW, null, null)).toEqual({
      zone: 'America/Los_Angeles',
      source: 'number',
    });
    const india = calleeZone('+919876543210', NOW, 'America/New_York', 'UTC');
    expect(india.source).toBe('number');
    expect(offsetOf(india.zone)).toBe(330);
  });

  it("then a valid contact zone, when the number's zone is not one clock", () => {
    expect(calleeZone('+18005550100', NOW, 'America/Chicago', 'Europe/Paris')).toEqual({
      zone: 'America/Chicago',
      source: 'contact',
    });
    expect(calleeZone('+999', NOW, 'Asia/Kolkata', undefined)).toEqual({
      zone: 'Asia/Kolkata',
      source: 'contact',
    });
  });

  it('then the window zone', () => {
    expect(calleeZone('+18005550100', NOW, null, 'Europe/Paris')).toEqual({
      zone: 'Europe/Paris',
      source: 'window',
    });
    expect(calleeZone('+18005550100', NOW, undefined, 'Asia/Kolkata')).toEqual({
      zone: 'Asia/Kolkata',
      source: 'window',
    });
    expect(calleeZone('+18005550100', NOW, '', 'Asia/Kolkata')).toEqual({
      zone: 'Asia/Kolkata',
      source: 'window',
    });
  });

  it('then UTC', () => {
    expect(calleeZone('+18005550100', NOW, undefined, undefined)).toEqual({ zone: 'UTC', source: 'utc' });
    expect(calleeZone('+18005550100', NOW, null, null)).toEqual({ zone: 'UTC', source: 'utc' });
    expect(calleeZone('', NOW, null, '')).toEqual({ zone: 'UTC', source: 'utc' });
  });

  it('ignores a contact zone that is not a zone', () => {
    expect(calleeZone('+18005550100', NOW, 'Mars/Base', 'Europe/Paris')).toEqual({
      zone: 'Europe/Paris',
      source: 'window',
    });
    expect(calleeZone('+18005550100', NOW, 'EST5EDT-not-a-zone', null)).toEqual({
      zone: 'UTC',
      source: 'utc',
    });
  });

  it('ignores a window zone that is not a zone', () => {
    expect(calleeZone('+18005550100', NOW, null, 'Nowhere/Land')).toEqual({ zone: 'UTC', source: 'utc' });
    expect(calleeZone('+18005550100', NOW, 'Mars/Base', 'Nowhere/Land')).toEqual({
      zone: 'UTC',
      source: 'utc',
    });
  });

  it('follows the season for a range that is one clock only part of the year', () => {
    expect(calleeZone('+19282830000', WINTER, 'America/Phoenix', null)).toEqual({
      zone: 'America/Denver',
      source: 'number',
    });
    expect(calleeZone('+19282830000', SUMMER, 'America/Phoenix', null)).toEqual({
      zone: 'America/Phoenix',
      source: 'contact',
    });
  });

  it('resolves a UK mobile from the number itself', () => {
    const uk = calleeZone('+447911123456', SUMMER, 'Asia/Tokyo', 'America/New_York');
    expect(uk.source).toBe('number');
    expect(offsetOf(uk.zone, SUMMER)).toBe(60);
  });
});
