import { callee, CampaignEventTap, CampaignsPartner } from './campaign-fixtures';

describe('campaigns and the do-not-call list', () => {
  let tap: CampaignEventTap;

  beforeAll(async () => {
    tap = await CampaignEventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('skips listed contacts without dialling them, with the reason on the contact and in the decision log', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const listed = callee('77');
    const byPrefix = '+4420' + String(Date.now()).slice(-7);
    const open = [callee('77'), callee('77')];
    const entry = (
      await partner.call('/do-not-call', { method: 'POST', body: { number: listed, reason: 'opt_out' } })
    ).body.data;
    const area = (
      await partner.call('/do-not-call', { method: 'POST', body: { prefix: '+4420', reason: 'legal' } })
    ).body.data;
    const c = await partner.createCampaign({ concurrency_limit: 2 });
    expect((await partner.addContacts(c.campaign_id, [listed, open[0], byPrefix, open[1]])).status).toBe(200);
    expect((await partner.start(c.campaign_id)).status).toBe(200);

    const done = await partner.waitForStatus(c.campaign_id, 'completed', 120_000);
    expect(done).toMatchObject({ total_contacts: 4, completed_count: 2, failed_count: 0, skipped_count: 2 });
    const contacts = await partner.contacts(c.campaign_id);
    const byNumber = new Map(contacts.map((contact) => [contact.phone_number, contact]));
    for (const number of [listed, byPrefix]) {
      expect(byNumber.get(number)).toMatchObject({
        status: 'skipped',
        skip_reason: 'DO_NOT_CALL',
        attempts: 0,
        call_ids: [],
      });
    }
    for (const number of open) {
      expect(byNumber.get(number)).toMatchObject({ status: 'completed', skip_reason: null });
    }
    // Only the open numbers were ever dialled.
    expect([...tap.callsByNumber(partner.id).keys()].sort()).toEqual([...open].sort());

    const decisions = await partner.call(`/contact-policy/decisions?campaign_id=${c.campaign_id}`);
    expect(decisions.status).toBe(200);
    const logged = decisions.body.data.decisions as Record<string, unknown>[];
    expect(logged.map((d) => d.number).sort()).toEqual([listed, byPrefix].sort());
    expect(logged.find((d) => d.number === listed)).toMatchObject({
      rule: 'do_not_call',
      outcome: 'skipped',
      source: 'campaign',
      campaign_id: c.campaign_id,
      contact_id: byNumber.get(listed)!.contact_id,
      do_not_call_id: entry.id,
    });
    expect(logged.find((d) => d.number === byPrefix)).toMatchObject({ do_not_call_id: area.id });
  });
});
