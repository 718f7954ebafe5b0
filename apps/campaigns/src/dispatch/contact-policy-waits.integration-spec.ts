// Campaigns and the contact policy: calls judges a dial by the campaign's window and the contact's zone (the origin
// campaigns sends) and defers it with a retry_at; campaigns keeps the contact waiting without a slot, shows why on
// the campaign, and asks again when it is due, on a resume, a window change or new account settings.
import { ContactPolicySettingsDto } from '@vap/api';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { waitFor } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { callee, CampaignsUnderTest } from '../testing/campaigns-integration';

const START = new Date('2027-03-15T03:00:00.000Z');
const OPENS_AT = '2027-03-15T04:00:00.000Z';
const WINDOW = { start: '04:00', end: '05:00', timezone: 'UTC' };

const outsideWindow = (retryAt: string) =>
  new AppError(ErrorCode.OUTSIDE_CALLING_WINDOW, 'Outside the calling window', { retryAt });

describe('campaigns and the contact policy', () => {
  const it_ = useIntegrationApp(() => CampaignsUnderTest.start({ clockStart: START }));

  afterEach(() => {
    it_.calls.refuse = null;
    expect(it_.app.peers.unanswered).toEqual([]);
  });

  it('dials contacts inside their calling window at once and the others when their window opens, holding no slot meanwhile', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 2, calling_window: WINDOW });
    const now = [callee(), callee()];
    const later = [callee(), callee()];
    // Calls defers the Kolkata contacts until the window opens on the campaign's clock; the others it dials.
    it_.calls.refuse = (req) =>
      req.origin?.timezone === 'Asia/Kolkata' && it_.app.clock.now() < new Date(OPENS_AT)
        ? outsideWindow(OPENS_AT)
        : null;
    const upload = await it_.app.send('campaigns.contact.add', partner.id, {
      id: c.campaign_id,
      rows: [
        { row: 1, contact: { phone_number: later[0], timezone: 'Asia/Kolkata' } },
        { row: 2, contact: { phone_number: now[0], timezone: 'Asia/Kathmandu' } },
        { row: 3, contact: { phone_number: later[1], timezone: 'Asia/Kolkata' } },
        { row: 4, contact: { phone_number: now[1], timezone: 'Asia/Kathmandu' } },
      ],
    });
    expect(upload).toMatchObject({ accepted: 4, rejected: 0 });
    await partner.start(c.campaign_id);

    // The deferred contacts hold no slot: both open-zone contacts are in flight at concurrency 2.
    const open = await it_.calls.waitForLive(partner.id, 2);
    expect(open.map((k) => k.toNumber).sort()).toEqual([...now].sort());
    for (const call of open) await it_.calls.end(call, 'completed');
    const waiting = await waitFor(
      async () => {
        const campaign = await partner.campaign(c.campaign_id);
        return campaign.completed_count === 2 && campaign.waiting_reason ? campaign : undefined;
      },
      { timeoutMs: 5000, intervalMs: 20 },
    );
    expect(waiting).toMatchObject({
      status: 'running',
      completed_count: 2,
      waiting_reason: 'waiting_for_window',
      waiting_until: OPENS_AT,
    });
    const byNumber = new Map((await partner.contacts(c.campaign_id)).map((k) => [k.phone_number, k]));
    for (const number of now)
      expect(byNumber.get(number)).toMatchObject({ status: 'completed', attempts: 1 });
    for (const number of later) {
      expect(byNumber.get(number)).toMatchObject({
        status: 'pending',
        attempts: 0,
        call_ids: [],
        wait_reason: 'OUTSIDE_CALLING_WINDOW',
        timezone: 'Asia/Kolkata',
        next_attempt_at: OPENS_AT,
      });
    }
    // Calls was told the campaign's window and each contact's zone, and deferred each waiting contact.
    const asked = it_.app.peers.received.filter(
      (r) => r.subject === 'calls.call.start' && r.partnerId === partner.id,
    );
    for (const r of asked) {
      const req = r.data as { to_number: string; origin: Record<string, unknown> };
      expect(req.origin).toMatchObject({
        campaign_id: c.campaign_id,
        calling_window: WINDOW,
        timezone: later.includes(req.to_number) ? 'Asia/Kolkata' : 'Asia/Kathmandu',
      });
    }
    expect(it_.calls.refusals.filter((r) => later.includes(r.toNumber)).map((r) => r.code)).toEqual([
      ErrorCode.OUTSIDE_CALLING_WINDOW,
      ErrorCode.OUTSIDE_CALLING_WINDOW,
    ]);

    // When the window opens they are dialled, and the campaign completes.
    it_.app.clock.set(new Date(OPENS_AT));
    const done = await partner.runToCompletion(c.campaign_id);
    expect(done).toMatchObject({ completed_count: 4, skipped_count: 0, waiting_reason: null });
    const after = await partner.contacts(c.campaign_id);
    for (const contact of after.filter((k) => later.includes(k.phone_number))) {
      expect(contact).toMatchObject({ status: 'completed', attempts: 1, wait_reason: null });
      expect(Date.parse(contact.attempt_history[0].started_at!)).toBeGreaterThanOrEqual(Date.parse(OPENS_AT));
    }
  });

  it('holds retries to the frequency caps across pause and resume', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const c = await partner.createCampaign({ retry_count: 2, retry_delays_minutes: [0] });
    const busy = callee();
    await partner.addContacts(c.campaign_id, [busy]);
    // One call a day: calls defers any dial of a number it has called until the next day.
    const midnight = new Date(START.getTime() + 86_400_000).toISOString();
    it_.calls.refuse = (req) =>
      it_.calls.callsByNumber(partner.id).has(req.to_number)
        ? new AppError(ErrorCode.FREQUENCY_CAP_REACHED, 'Frequency cap reached', { retryAt: midnight })
        : null;
    await partner.start(c.campaign_id);
    const [call] = await it_.calls.waitForLive(partner.id, 1);
    await it_.calls.end(call, 'busy');

    // The first attempt is busy; its retry is over the day's cap, so it waits for the cap's retry_at.
    const waitingContact = await waitFor(
      async () => {
        const [contact] = await partner.contacts(c.campaign_id);
        return contact.wait_reason ? contact : undefined;
      },
      { timeoutMs: 5000, intervalMs: 20 },
    );
    expect(waitingContact).toMatchObject({
      status: 'retry_wait',
      attempts: 1,
      last_call_status: 'busy',
      wait_reason: 'FREQUENCY_CAP_REACHED',
      next_attempt_at: midnight,
    });
    expect(await partner.campaign(c.campaign_id)).toMatchObject({
      status: 'running',
      waiting_reason: 'waiting_for_frequency_cap',
      waiting_until: midnight,
    });
    const deferrals = () => it_.calls.refusals.filter((r) => r.toNumber === busy).length;
    expect(deferrals()).toBe(1);

    await partner.pause(c.campaign_id);
    await partner.resume(c.campaign_id);
    // The resume has it asked anew (the account may have changed its caps): deferred again, with its one call.
    await waitFor(() => deferrals() === 2, { timeoutMs: 5000, intervalMs: 20 });
    const [contact] = await waitFor(
      async () => {
        const ks = await partner.contacts(c.campaign_id);
        return ks[0].status === 'retry_wait' ? ks : undefined;
      },
      { timeoutMs: 5000, intervalMs: 20 },
    );
    expect(contact).toMatchObject({
      status: 'retry_wait',
      attempts: 1,
      wait_reason: 'FREQUENCY_CAP_REACHED',
      next_attempt_at: midnight,
    });
    expect(contact.call_ids).toHaveLength(1);
    expect(it_.calls.callsByNumber(partner.id).get(busy)).toHaveLength(1);
  });

  it('asks again at once when the campaign is resumed with another window', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const later = new Date(START.getTime() + 86_400_000).toISOString();
    // A window closed now: calls defers every dial of a campaign that sends one, for a day.
    it_.calls.refuse = (req) => (req.origin?.calling_window ? outsideWindow(later) : null);
    const c = await partner.createCampaign({
      calling_window: { start: '12:00', end: '13:00', timezone: 'UTC' },
    });
    await partner.addContacts(c.campaign_id, [callee(), callee()]);
    await partner.start(c.campaign_id);
    await partner.waitForWaitingReason(c.campaign_id, 'waiting_for_window');

    await partner.pause(c.campaign_id);
    const patched = await it_.app.send('campaigns.campaign.update', partner.id, {
      id: c.campaign_id,
      changes: { calling_window: null },
    });
    expect(patched.calling_window).toBeNull();
    await partner.resume(c.campaign_id);
    // No window now: both are dialled without waiting for the old opening (the clock does not move).
    const done = await partner.runToCompletion(c.campaign_id);
    expect(done).toMatchObject({ completed_count: 2, waiting_reason: null });
  });

  it('asks waiting contacts again at once when the account changes its settings', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const opens = new Date(START.getTime() + 3 * 3_600_000).toISOString();
    // The account's own window, closed now; the campaign has none of its own.
    let accountWindow = true;
    it_.calls.refuse = () => (accountWindow ? outsideWindow(opens) : null);
    const c = await partner.createCampaign();
    await partner.addContacts(c.campaign_id, [callee(), callee()]);
    await partner.start(c.campaign_id);
    const waiting = await partner.waitForWaitingReason(c.campaign_id, 'waiting_for_window');
    expect(waiting.waiting_until).toBe(opens);

    // No pause, no resume: the account drops its window (calls publishes its settings) and the campaign dials.
    accountWindow = false;
    await it_.app.publish(
      DomainEvents.contactPolicySettingsUpdated,
      { calling_window: null } as Partial<ContactPolicySettingsDto>,
      partner.id,
    );
    const done = await partner.runToCompletion(c.campaign_id);
    expect(done).toMatchObject({ completed_count: 2, waiting_reason: null });
  });
});
