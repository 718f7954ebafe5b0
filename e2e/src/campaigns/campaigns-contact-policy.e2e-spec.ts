import { randomInt } from 'node:crypto';
import { DateTime } from 'luxon';
import { callee, CampaignsPartner, Loose, until } from './campaign-fixtures';

/** A US toll-free number: its range spans every North American zone, so the contact's timezone decides. */
const tollFree = (suffix = '77') => `+1800${String(randomInt(0, 100_000)).padStart(5, '0')}${suffix}`;

/**
 * Two zones, `open` ahead of `waiting` (by 15 or 30 minutes), chosen so that a window starting within two
 * minutes from now in `waiting` and lasting WINDOW_MINUTES is already open in `open`, without crossing
 * midnight in either. One pair always fits: when it is past 22:00 in India it is after 01:30 in Japan.
 */
/** Longer than the lead of either pair's `open` zone, so that zone is inside the window, not past its end. */
const WINDOW_MINUTES = 60;

function zonePair(): { waiting: string; open: string } {
  const pairs = [
    { waiting: 'Asia/Kolkata', open: 'Asia/Kathmandu' }, // +05:30 and +05:45
    { waiting: 'Asia/Tokyo', open: 'Australia/Darwin' }, // +09:00 and +09:30
  ];
  return pairs.find(({ waiting }) => {
    const local = DateTime.now().setZone(waiting);
    const minutes = local.hour * 60 + local.minute;
    return minutes >= 5 && minutes <= 22 * 60;
  })!;
}

async function policy(partner: CampaignsPartner, body: Record<string, unknown>): Promise<void> {
  const res = await partner.call('/contact-policy/settings', { method: 'PATCH', body });
  expect(res.status).toBe(200);
}

describe('campaigns and the contact policy', () => {
  it('dials contacts inside their calling window at once and the others when their window opens, holding no slot meanwhile', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const { waiting, open } = zonePair();
    // The window opens 40..100 s from now on the waiting zone's clock (it starts on a minute): time for the
    // open half's short calls, which take a few seconds, to end.
    const opensAt = DateTime.now().setZone(waiting).plus({ seconds: 100 }).startOf('minute');
    const window = {
      start: opensAt.toFormat('HH:mm'),
      end: opensAt.plus({ minutes: WINDOW_MINUTES }).toFormat('HH:mm'),
      timezone: 'UTC',
    };
    const c = await partner.createCampaign({ concurrency_limit: 2, calling_window: window });
    const now = [tollFree(), tollFree()];
    const later = [tollFree(), tollFree()];
    const upload = await partner.call(`/campaigns/${c.campaign_id}/contacts`, {
      method: 'POST',
      body: {
        contacts: [
          { phone_number: later[0], timezone: waiting },
          { phone_number: now[0], timezone: open },
          { phone_number: later[1], timezone: waiting },
          { phone_number: now[1], timezone: open },
        ],
      },
    });
    expect(upload.body.data).toMatchObject({ accepted: 4, rejected: 0 });
    expect((await partner.start(c.campaign_id)).status).toBe(200);

    // The open zone's contacts complete; the waiting zone's wait for the opening, and the campaign says so.
    const waitingCampaign = await until(
      'the campaign to wait for the window',
      async () => {
        const campaign = await partner.campaign(c.campaign_id);
        return campaign.waiting_reason ? campaign : undefined;
      },
      120_000,
    );
    expect(waitingCampaign).toMatchObject({
      status: 'running',
      completed_count: 2,
      waiting_reason: 'waiting_for_window',
      waiting_until: opensAt.toUTC().toISO(),
    });
    expect(Date.now()).toBeLessThan(opensAt.toMillis());
    const byNumber = new Map((await partner.contacts(c.campaign_id)).map((k) => [k.phone_number, k]));
    for (const number of now)
      expect(byNumber.get(number)).toMatchObject({ status: 'completed', attempts: 1 });
    for (const number of later) {
      expect(byNumber.get(number)).toMatchObject({
        status: 'pending',
        attempts: 0,
        call_ids: [],
        wait_reason: 'OUTSIDE_CALLING_WINDOW',
        timezone: waiting,
        next_attempt_at: opensAt.toUTC().toISO(),
      });
    }
    const logged = await partner.call(`/contact-policy/decisions?campaign_id=${c.campaign_id}`);
    const deferred = logged.body.data.decisions as Loose[];
    expect(deferred.map((d) => d.number).sort()).toEqual([...later].sort());
    for (const d of deferred) {
      expect(d).toMatchObject({
        rule: 'calling_window',
        outcome: 'deferred',
        source: 'campaign',
        retry_at: opensAt.toUTC().toISO(),
      });
    }

    // When the window opens they are dialled, and the campaign completes.
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 150_000);
    expect(done).toMatchObject({ completed_count: 4, skipped_count: 0, waiting_reason: null });
    const after = await partner.contacts(c.campaign_id);
    for (const contact of after.filter((k) => later.includes(k.phone_number))) {
      expect(contact).toMatchObject({ status: 'completed', attempts: 1, wait_reason: null });
      expect(Date.parse(contact.attempt_history[0].started_at)).toBeGreaterThanOrEqual(opensAt.toMillis());
    }
  }, 330_000);

  it('holds retries to the frequency caps across pause and resume', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    await policy(partner, { max_attempts_per_day: 1 });
    const c = await partner.createCampaign({ retry_count: 2, retry_delays_minutes: [0] });
    const busy = callee('02');
    expect((await partner.addContacts(c.campaign_id, [busy])).status).toBe(200);
    expect((await partner.start(c.campaign_id)).status).toBe(200);

    // The first attempt is busy; its retry is over the day's cap, so it waits for the next day in India.
    const midnight = DateTime.now().setZone('Asia/Kolkata').startOf('day').plus({ days: 1 });
    const waitingContact = await until(
      'the retry to wait for the cap',
      async () => {
        const [contact] = await partner.contacts(c.campaign_id);
        return contact.wait_reason ? contact : undefined;
      },
      60_000,
    );
    expect(waitingContact).toMatchObject({
      status: 'retry_wait',
      attempts: 1,
      last_call_status: 'busy',
      wait_reason: 'FREQUENCY_CAP_REACHED',
      next_attempt_at: midnight.toUTC().toISO(),
    });
    expect(await partner.campaign(c.campaign_id)).toMatchObject({
      status: 'running',
      waiting_reason: 'waiting_for_frequency_cap',
      waiting_until: midnight.toUTC().toISO(),
    });

    expect((await partner.call(`/campaigns/${c.campaign_id}/pause`, { method: 'POST' })).status).toBe(200);
    expect((await partner.call(`/campaigns/${c.campaign_id}/resume`, { method: 'POST' })).status).toBe(200);
    // A few dispatch passes later the contact still waits, with its one call.
    await new Promise((r) => setTimeout(r, 1500));
    const [contact] = await partner.contacts(c.campaign_id);
    expect(contact).toMatchObject({
      status: 'retry_wait',
      attempts: 1,
      wait_reason: 'FREQUENCY_CAP_REACHED',
    });
    expect(contact.call_ids).toHaveLength(1);
    // Deferred once, and again when the resume had it asked anew (the account may have changed its caps).
    const logged = await partner.call(`/contact-policy/decisions?campaign_id=${c.campaign_id}`);
    const decisions = logged.body.data.decisions as Loose[];
    expect(decisions.length).toBeGreaterThanOrEqual(1);
    for (const d of decisions) {
      expect(d).toMatchObject({
        number: busy,
        rule: 'frequency_cap',
        outcome: 'deferred',
        contact_id: contact.contact_id,
        retry_at: midnight.toUTC().toISO(),
      });
    }
  }, 120_000);

  it('asks again at once when the campaign is resumed with another window', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    // An hour's window that is closed now on India's clock (the +91 callees' zone).
    const hour = DateTime.now().setZone('Asia/Kolkata').hour;
    const closed =
      hour >= 1 && hour <= 3 ? { start: '12:00', end: '13:00' } : { start: '02:00', end: '03:00' };
    const c = await partner.createCampaign({ calling_window: { ...closed, timezone: 'UTC' } });
    const numbers = [callee(), callee()];
    expect((await partner.addContacts(c.campaign_id, numbers)).status).toBe(200);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    await until(
      'the campaign to wait for the window',
      async () =>
        (await partner.campaign(c.campaign_id)).waiting_reason === 'waiting_for_window' ? true : undefined,
      60_000,
    );

    expect((await partner.call(`/campaigns/${c.campaign_id}/pause`, { method: 'POST' })).status).toBe(200);
    const patched = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { calling_window: null },
    });
    expect(patched.body.data.calling_window).toBeNull();
    expect((await partner.call(`/campaigns/${c.campaign_id}/resume`, { method: 'POST' })).status).toBe(200);
    // No window now (the account has none): both are dialled without waiting for the old opening.
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 90_000);
    expect(done).toMatchObject({ completed_count: 2, waiting_reason: null });
  }, 150_000);

  it('asks waiting contacts again at once when the account changes its settings', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    // The account's window, closed now on India's clock; the campaign has none of its own.
    const hour = DateTime.now().setZone('Asia/Kolkata').hour;
    const closed =
      hour >= 1 && hour <= 3 ? { start: '12:00', end: '13:00' } : { start: '02:00', end: '03:00' };
    await policy(partner, { calling_window: { ...closed, timezone: 'UTC' } });
    const c = await partner.createCampaign();
    expect((await partner.addContacts(c.campaign_id, [callee(), callee()])).status).toBe(200);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    const waiting = await until(
      'the campaign to wait for the window',
      async () => {
        const campaign = await partner.campaign(c.campaign_id);
        return campaign.waiting_reason === 'waiting_for_window' ? campaign : undefined;
      },
      60_000,
    );
    expect(Date.parse(waiting.waiting_until)).toBeGreaterThan(Date.now() + 60_000);

    // No pause, no resume: the account drops its window and the running campaign dials them.
    await policy(partner, { calling_window: null });
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 60_000);
    expect(done).toMatchObject({ completed_count: 2, waiting_reason: null });
  }, 150_000);

  it('rejects a contact row whose timezone is not an IANA zone', async () => {
    const partner = await CampaignsPartner.create();
    const c = await partner.createCampaign();
    const res = await partner.call(`/campaigns/${c.campaign_id}/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: `phone_number,timezone,customer_name\n${callee()},Europe/Paris,Asha\n${callee()},Mars/Base,Ravi\n`,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toEqual([
      { row: 1, status: 'accepted', reason: null },
      { row: 2, status: 'rejected', reason: 'invalid_timezone' },
    ]);
    const [contact] = await partner.contacts(c.campaign_id);
    expect(contact).toMatchObject({ timezone: 'Europe/Paris', variables: { customer_name: 'Asha' } });
  });
});
