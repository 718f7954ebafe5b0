import { DateTime } from 'luxon';
import { api } from '../../support';
import { CallsPartner, callee } from './call-fixtures';

const KOLKATA = 'Asia/Kolkata';
const INDIA_ZONE = /Asia\/(Kolkata|Calcutta)/;
const hhmm = (t: DateTime) => t.toFormat('HH:mm');

/**
 * A one-hour window that is closed now in `zone` and opens within the day: starting at the next full hour
 * (or 01:00 after 22:00), with the instant it opens next.
 */
function closedWindow(zone: string): { start: string; end: string; opensAt: DateTime } {
  const now = DateTime.now().setZone(zone);
  const startHour = now.hour < 22 ? now.hour + 1 : 1;
  let opensAt = now.set({ hour: startHour, minute: 0, second: 0, millisecond: 0 });
  if (opensAt <= now) opensAt = opensAt.plus({ days: 1 });
  return {
    start: `${String(startHour).padStart(2, '0')}:00`,
    end: `${String(startHour + 1).padStart(2, '0')}:00`,
    opensAt,
  };
}

async function settings(partner: CallsPartner, body?: Record<string, unknown>) {
  return api('/contact-policy/settings', {
    method: body ? 'PATCH' : 'GET',
    body,
    key: partner.generalKey,
  });
}

async function decisions(partner: CallsPartner, query = '') {
  const res = await api(`/contact-policy/decisions${query}`, { key: partner.generalKey });
  expect(res.status).toBe(200);
  return res.body.data.decisions as Record<string, unknown>[];
}

describe('contact policy settings', () => {
  it('start empty, change field by field, clear with null, and belong to one account', async () => {
    const partner = await CallsPartner.create();
    const initial = await settings(partner);
    expect(initial.status).toBe(200);
    expect(initial.body.data).toEqual({
      calling_window: null,
      windows_apply_to_single_calls: false,
      max_attempts_per_day: null,
      max_attempts_per_7_days: null,
      updated_at: null,
    });

    const set = await settings(partner, { calling_window: { preset: 'US' }, max_attempts_per_day: 3 });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({
      calling_window: {
        preset: 'US',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        start: '08:00',
        end: '21:00',
        timezone: 'America/New_York',
      },
      windows_apply_to_single_calls: false,
      max_attempts_per_day: 3,
      max_attempts_per_7_days: null,
      updated_at: expect.any(String),
    });
    const more = await settings(partner, {
      windows_apply_to_single_calls: true,
      max_attempts_per_7_days: 10,
      calling_window: { days: ['sat', 'mon'], start: '10:30', end: '24:00', timezone: 'Europe/Berlin' },
    });
    expect(more.body.data).toMatchObject({
      calling_window: {
        preset: null,
        days: ['mon', 'sat'],
        start: '10:30',
        end: '24:00',
        timezone: 'Europe/Berlin',
      },
      windows_apply_to_single_calls: true,
      max_attempts_per_day: 3,
      max_attempts_per_7_days: 10,
    });
    expect((await settings(partner)).body.data).toEqual(more.body.data);
    const cleared = await settings(partner, { calling_window: null, max_attempts_per_day: null });
    expect(cleared.body.data).toMatchObject({
      calling_window: null,
      windows_apply_to_single_calls: true,
      max_attempts_per_day: null,
      max_attempts_per_7_days: 10,
    });

    // Another account has its own (empty) settings.
    const other = await CallsPartner.create();
    expect((await settings(other)).body.data.max_attempts_per_7_days).toBeNull();
  });

  it('keeps every field of first PATCHes sent at once', async () => {
    for (let round = 0; round < 3; round++) {
      const partner = await CallsPartner.create();
      const answers = await Promise.all([
        settings(partner, { max_attempts_per_day: 3 }),
        settings(partner, { max_attempts_per_7_days: 9 }),
        settings(partner, { calling_window: { preset: 'IN' } }),
        settings(partner, { windows_apply_to_single_calls: true }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect((await settings(partner)).body.data).toMatchObject({
        max_attempts_per_day: 3,
        max_attempts_per_7_days: 9,
        calling_window: { preset: 'IN' },
        windows_apply_to_single_calls: true,
      });
    }
  });

  it.each([
    [{ calling_window: 'US' }, 'calling_window'],
    [{ calling_window: { preset: 'EU' } }, 'preset'],
    [{ calling_window: { start: '9:00', end: '21:00', timezone: KOLKATA } }, 'start'],
    [{ calling_window: { start: '09:00', end: '24:30', timezone: KOLKATA } }, 'end'],
    [{ calling_window: { start: '21:00', end: '21:00', timezone: KOLKATA } }, 'calling_window.end'],
    [
      { calling_window: { start: '09:00', end: '21:00', timezone: 'Asia/Atlantis' } },
      'calling_window.timezone',
    ],
    [{ calling_window: { start: '09:00', end: '21:00' } }, 'calling_window.timezone'],
    [{ calling_window: { preset: 'IN', days: [] } }, 'days'],
    [{ calling_window: { preset: 'IN', days: ['mon', 'mon'] } }, 'days'],
    [{ calling_window: { preset: 'IN', colour: 'red' } }, 'colour'],
    [{ max_attempts_per_day: 0 }, 'max_attempts_per_day'],
    [{ max_attempts_per_day: 2.5 }, 'max_attempts_per_day'],
    [{ max_attempts_per_7_days: '3' }, 'max_attempts_per_7_days'],
    [{ max_attempts_per_7_days: 701 }, 'max_attempts_per_7_days'],
    [{ windows_apply_to_single_calls: 'yes' }, 'windows_apply_to_single_calls'],
    [{ quiet_hours: true }, 'quiet_hours'],
  ])('refuses %j with 400 VALIDATION_ERROR naming %s, changing nothing', async (body, field) => {
    const partner = await CallsPartner.create();
    const res = await settings(partner, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(field);
    expect((await settings(partner)).body.data.updated_at).toBeNull();
  });
});

describe('contact policy on POST /calls/start', () => {
  it("refuses a call outside the callee's calling window with OUTSIDE_CALLING_WINDOW and when it opens, only when windows apply to single calls", async () => {
    const partner = await CallsPartner.create({ concurrency_limit: 5 });
    const agent = await partner.createAgent();
    // A +91 number is in India's one zone: the window is judged in Asia/Kolkata whatever the window's own zone.
    const window = closedWindow(KOLKATA);
    await settings(partner, {
      calling_window: { start: window.start, end: window.end, timezone: 'America/New_York' },
      windows_apply_to_single_calls: true,
    });
    const number = callee('77');
    const refused = await partner.start({ agent_id: agent.id, to_number: number });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'OUTSIDE_CALLING_WINDOW',
      retry_at: window.opensAt.toUTC().toISO(),
    });
    // libphonenumber names India's zone by its older IANA name, Asia/Calcutta (a link to Asia/Kolkata).
    expect(refused.body.error.message).toMatch(INDIA_ZONE);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(window.opensAt.diffNow().as('seconds')) + 1);
    const listed = await partner.calls('?limit=100');
    expect(listed.body.data.calls.filter((c: { to_number: string }) => c.to_number === number)).toEqual([]);
    expect(await decisions(partner, `?rule=calling_window`)).toEqual([
      expect.objectContaining({
        number,
        rule: 'calling_window',
        outcome: 'refused',
        source: 'single_call',
        retry_at: refused.body.error.retry_at,
        detail: expect.stringMatching(INDIA_ZONE),
      }),
    ]);

    // An open window lets it through; so does a closed one that does not apply to single calls.
    const now = DateTime.now().setZone(KOLKATA);
    const openStart = now.hour >= 1 ? now.minus({ hours: 1 }).startOf('hour') : now.startOf('day');
    const openEnd = now.hour < 23 ? hhmm(now.plus({ hours: 1 }).startOf('hour')) : '24:00';
    await settings(partner, { calling_window: { start: hhmm(openStart), end: openEnd, timezone: KOLKATA } });
    expect((await partner.start({ agent_id: agent.id, to_number: callee('77') })).status).toBe(200);
    await settings(partner, {
      calling_window: { start: window.start, end: window.end, timezone: KOLKATA },
      windows_apply_to_single_calls: false,
    });
    expect((await partner.start({ agent_id: agent.id, to_number: callee('77') })).status).toBe(200);
  });

  it('caps calls per number per day and per 7 days with FREQUENCY_CAP_REACHED, exactly under concurrent starts', async () => {
    const partner = await CallsPartner.create({ concurrency_limit: 10 });
    const agent = await partner.createAgent();
    await settings(partner, { max_attempts_per_day: 2 });
    const number = callee('77');
    for (let i = 0; i < 2; i += 1) {
      expect((await partner.start({ agent_id: agent.id, to_number: number })).status).toBe(200);
    }
    const capped = await partner.start({ agent_id: agent.id, to_number: number });
    expect(capped.status).toBe(429);
    // The day is the callee's: the cap lifts at the next midnight in India.
    const midnight = DateTime.now().setZone(KOLKATA).startOf('day').plus({ days: 1 });
    expect(capped.body.error).toMatchObject({
      code: 'FREQUENCY_CAP_REACHED',
      retry_at: midnight.toUTC().toISO(),
    });
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another number has its own count.
    expect((await partner.start({ agent_id: agent.id, to_number: callee('77') })).status).toBe(200);

    // Five starts at once to a fresh number under a cap of one: exactly one call.
    await settings(partner, { max_attempts_per_day: 1 });
    const raced = callee('77');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => partner.start({ agent_id: agent.id, to_number: raced })),
    );
    expect(results.map((r) => `${r.status} ${r.body.error?.code ?? ''}`.trim()).sort()).toEqual([
      '200',
      ...Array(4).fill('429 FREQUENCY_CAP_REACHED'),
    ]);
    const listed = await partner.calls('?limit=100');
    expect(listed.body.data.calls.filter((c: { to_number: string }) => c.to_number === raced)).toHaveLength(
      1,
    );

    // The rolling 7 days: the cap lifts 7 x 24 h after the oldest call it counts.
    await settings(partner, { max_attempts_per_day: null, max_attempts_per_7_days: 2 });
    const weekly = await partner.start({ agent_id: agent.id, to_number: number });
    expect(weekly.status).toBe(429);
    const first = listed.body.data.calls
      .filter((c: { to_number: string }) => c.to_number === number)
      .map((c: { created_at: string }) => Date.parse(c.created_at))
      .sort((a: number, b: number) => a - b)[0];
    expect(Date.parse(weekly.body.error.retry_at)).toBe(first + 7 * 24 * 3600 * 1000);

    const logged = await decisions(partner, '?rule=frequency_cap');
    expect(logged).toHaveLength(6);
    expect(logged.every((d) => d.outcome === 'refused' && d.source === 'single_call')).toBe(true);
  });

  it('checks the do-not-call list before the window and the caps', async () => {
    const partner = await CallsPartner.create();
    const agent = await partner.createAgent();
    const window = closedWindow(KOLKATA);
    await settings(partner, {
      calling_window: { start: window.start, end: window.end, timezone: KOLKATA },
      windows_apply_to_single_calls: true,
    });
    const number = callee('77');
    await api('/do-not-call', {
      method: 'POST',
      key: partner.generalKey,
      body: { number, reason: 'complaint' },
    });
    const refused = await partner.start({ agent_id: agent.id, to_number: number });
    expect(refused.body.error.code).toBe('DO_NOT_CALL');
    expect(refused.body.error.retry_at).toBeUndefined();
  });
});
