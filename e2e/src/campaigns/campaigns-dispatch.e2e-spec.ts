import { adminApi } from '../../support';
import { callee, CampaignEventTap, CampaignsPartner, Loose, sleep, until } from './campaign-fixtures';

/** CAMPAIGNS_TIME_SCALE of the e2e platform: one campaign minute lasts 60 s / 120 = 500 ms. */
const MINUTE_MS = 500;

// Its tests run campaigns to completion, each waited for up to 120 s (a round of calls is a few seconds of
// sandbox conversation): beyond Jest's default 60 s on a loaded machine.
jest.setTimeout(180_000);

describe('campaign dispatcher: concurrency, retries, pause and resume', () => {
  let tap: CampaignEventTap;

  beforeAll(async () => {
    tap = await CampaignEventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('keeps concurrency_limit calls in flight, never more, and refills slots as calls release them', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 3 });
    const numbers = Array.from({ length: 12 }, () => callee('77'));
    await partner.addContacts(c.campaign_id, numbers);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 120_000);
    expect(done).toMatchObject({
      total_contacts: 12,
      completed_count: 12,
      failed_count: 0,
      skipped_count: 0,
    });
    expect(tap.peakInFlight(partner.id)).toBe(3);
    expect(tap.peakAccountActive(partner.id)).toBeLessThanOrEqual(3);
    // Every contact was dialled exactly once.
    const byNumber = tap.callsByNumber(partner.id);
    expect([...byNumber.keys()].sort()).toEqual([...numbers].sort());
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
  });

  it('clamps the campaign to the account’s concurrency limit, across the partner’s campaigns', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 2 });
    const a = await partner.createCampaign({ concurrency_limit: 10 });
    const b = await partner.createCampaign({ concurrency_limit: 10 });
    await partner.addContacts(
      a.campaign_id,
      Array.from({ length: 4 }, () => callee('88')),
    );
    await partner.addContacts(
      b.campaign_id,
      Array.from({ length: 4 }, () => callee('88')),
    );
    expect((await partner.start(a.campaign_id)).status).toBe(200);
    expect((await partner.start(b.campaign_id)).status).toBe(200);
    await partner.waitForStatus(a.campaign_id, 'completed', 120_000);
    await partner.waitForStatus(b.campaign_id, 'completed', 120_000);
    expect(tap.peakInFlight(partner.id)).toBe(2);
    expect(tap.peakAccountActive(partner.id)).toBeLessThanOrEqual(2);
    expect(tap.callsByNumber(partner.id).size).toBe(8);
  });

  it('retries busy, no_answer and failed up to retry_count after the delays and the cooldown', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    // Retry 1 after max(2, cooldown 3) = 3 minutes, retry 2 after max(4, 3) = 4 minutes (1.5 s and 2 s here).
    const c = await partner.createCampaign({
      concurrency_limit: 5,
      retry_concurrency: 2,
      retry_count: 2,
      retry_delays_minutes: [2, 4],
      cooldown_minutes: 3,
    });
    const numbers = [callee('02'), callee('01'), callee('03'), callee('77')];
    await partner.addContacts(c.campaign_id, numbers);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 120_000);
    expect(done).toMatchObject({ total_contacts: 4, completed_count: 1, failed_count: 3, skipped_count: 0 });

    const contacts = await partner.contacts(c.campaign_id);
    const expected: [string, string, number][] = [
      ['failed', 'busy', 3],
      ['failed', 'no_answer', 3],
      ['failed', 'failed', 3],
      ['completed', 'completed', 1],
    ];
    expect(contacts.map((k) => [k.status, k.last_call_status, k.attempts])).toEqual(expected);
    for (const k of contacts.slice(0, 3)) {
      expect(k.call_ids).toHaveLength(3);
      const history = k.attempt_history as Loose[];
      expect(history.map((h) => h.attempt)).toEqual([1, 2, 3]);
      const gap = (i: number) => Date.parse(history[i].started_at) - Date.parse(history[i - 1].ended_at);
      // Never sooner than the delay or the cooldown (a little slack for clock rounding).
      expect(gap(1)).toBeGreaterThanOrEqual(3 * MINUTE_MS - 50);
      expect(gap(2)).toBeGreaterThanOrEqual(4 * MINUTE_MS - 50);
    }
    expect(tap.peakInFlight(partner.id)).toBeLessThanOrEqual(5);
  });

  it('pauses: calls in flight finish, no new calls start; resume continues where it stopped', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 2 });
    const numbers = Array.from({ length: 8 }, () => callee('77'));
    await partner.addContacts(c.campaign_id, numbers);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    await until('a first call', async () => (tap.callEvents(partner.id).length > 0 ? true : undefined));
    const paused = await partner.call(`/campaigns/${c.campaign_id}/pause`, { method: 'POST' });
    expect(paused.status).toBe(200);

    // The calls in flight end; then nothing new is dialled while paused.
    await until('in-flight calls to finish', async () => {
      const contacts = await partner.contacts(c.campaign_id);
      return contacts.some((k) => k.status === 'dialing') ? undefined : contacts;
    });
    const placedAtPause = tap.callsByNumber(partner.id).size;
    expect(placedAtPause).toBeGreaterThan(0);
    expect(placedAtPause).toBeLessThan(8);
    await sleep(2000);
    expect(tap.callsByNumber(partner.id).size).toBe(placedAtPause);
    const whilePaused = await partner.campaign(c.campaign_id);
    expect(whilePaused.status).toBe('paused');
    expect(whilePaused.completed_count).toBe(placedAtPause);

    expect((await partner.call(`/campaigns/${c.campaign_id}/resume`, { method: 'POST' })).status).toBe(200);
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 120_000);
    expect(done.completed_count).toBe(8);
    const byNumber = tap.callsByNumber(partner.id);
    expect(byNumber.size).toBe(8);
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
    expect(tap.peakInFlight(partner.id)).toBeLessThanOrEqual(2);
  });

  it('pauses by itself when a caller ID disappears mid-campaign, with the reason', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const imported = await partner.call('/phone-numbers', {
      method: 'POST',
      body: { number: callee('13'), provider: 'sandbox' },
    });
    const c = await partner.createCampaign({
      concurrency_limit: 1,
      phone_number_ids: [imported.body.data.id],
    });
    await partner.addContacts(
      c.campaign_id,
      Array.from({ length: 6 }, () => callee('77')),
    );
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    await until('a first call', async () => (tap.callEvents(partner.id).length > 0 ? true : undefined));
    expect((await partner.call(`/phone-numbers/${imported.body.data.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    const paused = await partner.waitForStatus(c.campaign_id, 'paused', 60_000);
    expect(paused.pause_reason).toBe('CALLER_ID_INACTIVE');
    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.filter((k) => k.status === 'pending').length).toBeGreaterThan(0);
    const resume = await partner.call(`/campaigns/${c.campaign_id}/resume`, { method: 'POST' });
    expect(resume.status).toBe(409);
    expect(resume.body.error.code).toBe('CALLER_ID_INACTIVE');
  });

  it('pauses by itself when the balance runs out, and resumes once it is topped up', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5, balance_inr: 100 });
    const c = await partner.createCampaign({ concurrency_limit: 1 });
    await partner.addContacts(
      c.campaign_id,
      Array.from({ length: 5 }, () => callee('77')),
    );
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    await until('a first call', async () => (tap.callEvents(partner.id).length > 0 ? true : undefined));
    // The gateway's partner.updated event reaches the campaigns service; the next dial is refused.
    expect(
      (await adminApi(`/partners/${partner.id}`, { method: 'PATCH', body: { balance_inr: 1 } })).status,
    ).toBe(200);
    const paused = await partner.waitForStatus(c.campaign_id, 'paused', 60_000);
    expect(paused.pause_reason).toBe('INSUFFICIENT_BALANCE');
    expect(paused.completed_count).toBeLessThan(5);
    const refused = await partner.call(`/campaigns/${c.campaign_id}/resume`, { method: 'POST' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(
      (await adminApi(`/partners/${partner.id}`, { method: 'PATCH', body: { balance_inr: 100 } })).status,
    ).toBe(200);
    const resumed = await partner.call(`/campaigns/${c.campaign_id}/resume`, { method: 'POST' });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.pause_reason).toBeNull();
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 120_000);
    expect(done.completed_count).toBe(5);
    const byNumber = tap.callsByNumber(partner.id);
    expect(byNumber.size).toBe(5);
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
  });

  it('pauses by itself when the agent is deleted or the account suspended', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 1 });
    await partner.addContacts(
      c.campaign_id,
      Array.from({ length: 5 }, () => callee('77')),
    );
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    await until('a first call', async () => (tap.callEvents(partner.id).length > 0 ? true : undefined));
    expect((await partner.call(`/agent/${partner.agent.id}`, { method: 'DELETE' })).status).toBe(200);
    const paused = await partner.waitForStatus(c.campaign_id, 'paused', 60_000);
    expect(paused.pause_reason).toBe('AGENT_NOT_FOUND');

    const other = await CampaignsPartner.create({ concurrency_limit: 5 });
    const d = await other.createCampaign({ concurrency_limit: 1 });
    await other.addContacts(
      d.campaign_id,
      Array.from({ length: 5 }, () => callee('77')),
    );
    expect((await other.start(d.campaign_id)).status).toBe(200);
    await until('a first call', async () => (tap.callEvents(other.id).length > 0 ? true : undefined));
    expect(
      (await adminApi(`/partners/${other.id}`, { method: 'PATCH', body: { status: 'suspended' } })).status,
    ).toBe(200);
    // The partner's own key is refused while suspended: the pause is seen in the event, the reason once approved again.
    await until(
      'the suspended account’s campaign to pause',
      async () =>
        tap.campaignEvents(d.campaign_id).some((e) => e.data.status === 'paused') ? true : undefined,
      60_000,
    );
    expect(
      (await adminApi(`/partners/${other.id}`, { method: 'PATCH', body: { status: 'approved' } })).status,
    ).toBe(200);
    expect((await other.campaign(d.campaign_id)).pause_reason).toBe('FORBIDDEN');
  });

  it('waits while the account’s own calls hold every slot, without counting refused dials as attempts', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 1 });
    const manual = await partner.call('/calls/start', {
      method: 'POST',
      body: { agent_id: partner.agent.id, to_number: callee('77') },
    });
    expect(manual.status).toBe(200);
    const c = await partner.createCampaign({ concurrency_limit: 1 });
    const numbers = [callee('77'), callee('77')];
    await partner.addContacts(c.campaign_id, numbers);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 120_000);
    expect(done.completed_count).toBe(2);
    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.map((k) => [k.attempts, k.call_ids.length])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(tap.peakAccountActive(partner.id)).toBeLessThanOrEqual(1);
    expect(tap.peakInFlight(partner.id)).toBe(1);
  });
});
