import { DateTime } from 'luxon';
import { callee, CampaignsPartner, Loose, until } from './campaign-fixtures';

// What campaigns do with the policy's deferrals (waits, slots, resume, window and settings changes) is tested in
// process (apps/campaigns/src/dispatch/contact-policy-waits.integration-spec.ts); here, the journey across the
// services: calls judges a campaign's dial by its window and defers it, logging the decision against the campaign.

describe('campaigns and the contact policy', () => {
  it('defers a campaign’s dials outside its calling window, logged against the campaign, and the campaign says so', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    // An hour's window that is closed now on India's clock (the +91 callees' zone).
    const hour = DateTime.now().setZone('Asia/Kolkata').hour;
    const closed =
      hour >= 1 && hour <= 3 ? { start: '12:00', end: '13:00' } : { start: '02:00', end: '03:00' };
    const c = await partner.createCampaign({ calling_window: { ...closed, timezone: 'UTC' } });
    const numbers = [callee(), callee()];
    const upload = await partner.call(`/campaigns/${c.campaign_id}/contacts`, {
      method: 'POST',
      body: { contacts: numbers.map((phone_number) => ({ phone_number, timezone: 'Asia/Kolkata' })) },
    });
    expect(upload.body.data).toMatchObject({ accepted: 2, rejected: 0 });
    expect((await partner.start(c.campaign_id)).status).toBe(200);

    const waiting = await until(
      'the campaign to wait for the window',
      async () => {
        const campaign = await partner.campaign(c.campaign_id);
        return campaign.waiting_reason ? campaign : undefined;
      },
      60_000,
    );
    expect(waiting).toMatchObject({ status: 'running', waiting_reason: 'waiting_for_window' });
    const opensAt = waiting.waiting_until as string;
    expect(Date.parse(opensAt)).toBeGreaterThan(Date.now());
    for (const contact of await partner.contacts(c.campaign_id)) {
      expect(contact).toMatchObject({
        status: 'pending',
        attempts: 0,
        call_ids: [],
        wait_reason: 'OUTSIDE_CALLING_WINDOW',
        timezone: 'Asia/Kolkata',
        next_attempt_at: opensAt,
      });
    }
    const logged = await partner.call(`/contact-policy/decisions?campaign_id=${c.campaign_id}`);
    const deferred = logged.body.data.decisions as Loose[];
    expect([...new Set(deferred.map((d) => d.number))].sort()).toEqual([...numbers].sort());
    for (const d of deferred) {
      expect(d).toMatchObject({
        rule: 'calling_window',
        outcome: 'deferred',
        source: 'campaign',
        retry_at: opensAt,
      });
    }
    expect((await partner.call(`/campaigns/${c.campaign_id}/pause`, { method: 'POST' })).status).toBe(200);
  });

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
