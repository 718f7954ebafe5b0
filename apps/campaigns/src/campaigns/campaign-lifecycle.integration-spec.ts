// The campaign state table as the campaigns commands answer it: what a start refuses, the moves and their messages,
// and the campaign.status.updated event of each move, with calls ended by the events calls publishes.
import { CampaignStatusUpdatedData, DomainEvent } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { callee, CallOutcome, CampaignsUnderTest } from '../testing/campaigns-integration';

describe('campaign state table: start, pause, resume, completion', () => {
  const it_ = useIntegrationApp(() => CampaignsUnderTest.start());

  afterEach(() => {
    expect(it_.app.peers.unanswered).toEqual([]);
  });

  it('refuses to start without contacts: NO_CONTACTS, and the campaign stays draft', async () => {
    const partner = await it_.partner();
    const c = await partner.createCampaign();
    await expect(partner.start(c.campaign_id)).rejects.toMatchObject({ code: 'NO_CONTACTS', status: 409 });
    expect((await partner.campaign(c.campaign_id)).status).toBe('draft');
  });

  it('refuses to start with a balance below one 30-second call: 403 INSUFFICIENT_BALANCE', async () => {
    const poor = await it_.partner({ balancePaise: 199 });
    const c = await poor.createCampaign();
    await poor.addContacts(c.campaign_id, [callee()]);
    const refused = poor.start(c.campaign_id);
    await expect(refused).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE', status: 403 });
    await expect(refused).rejects.toThrow('INR 2.00');
    expect((await poor.campaign(c.campaign_id)).status).toBe('draft');
    // Exactly one 30-second call is enough.
    await poor.update({ balancePaise: 200 });
    expect((await poor.start(c.campaign_id)).status).toBe('running');
    await poor.pause(c.campaign_id);
  });

  it('refuses to start when a caller ID is no longer on the account: CALLER_ID_INACTIVE', async () => {
    const partner = await it_.partner();
    const number = callee();
    const numberId = it_.calls.addNumber(partner.id, number);
    const c = await partner.createCampaign({ phone_number_ids: [numberId] });
    await partner.addContacts(c.campaign_id, [callee()]);
    it_.calls.removeNumber(numberId);
    const refused = partner.start(c.campaign_id);
    await expect(refused).rejects.toMatchObject({ code: 'CALLER_ID_INACTIVE', status: 409 });
    await expect(refused).rejects.toThrow(number);
    expect((await partner.campaign(c.campaign_id)).status).toBe('draft');
  });

  it('follows the state table with the contract’s messages, then completes with counters', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 2 });
    const id = c.campaign_id;
    await expect(partner.pause(id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: 'only running campaigns can be paused',
    });
    await expect(partner.resume(id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: 'only paused campaigns can be resumed',
    });

    const numbers = [callee(), callee(), callee(), callee(), callee()];
    const outcomes: CallOutcome[] = ['completed', 'completed', 'busy', 'no_answer', 'failed'];
    await partner.addContacts(id, numbers, { customer_name: 'Asha' });
    expect((await partner.start(id)).status).toBe('running');
    await expect(partner.start(id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: 'only draft campaigns can start',
    });
    const paused = await partner.pause(id);
    expect(paused).toMatchObject({ status: 'paused', paused_at: expect.any(String) });
    await expect(partner.pause(id)).rejects.toThrow('only running campaigns can be paused');
    await expect(partner.start(id)).rejects.toThrow('only draft campaigns can start');
    expect((await partner.resume(id)).status).toBe('running');

    const done = await partner.runToCompletion(id, {
      outcomeOf: (call) => outcomes[numbers.indexOf(call.toNumber)],
    });
    expect(done).toMatchObject({
      total_contacts: 5,
      completed_count: 2,
      failed_count: 3,
      skipped_count: 0,
      completed_at: expect.any(String),
    });
    const contacts = await partner.contacts(id);
    expect(contacts.map((k) => [k.phone_number, k.status, k.attempts, k.last_call_status])).toEqual([
      [numbers[0], 'completed', 1, 'completed'],
      [numbers[1], 'completed', 1, 'completed'],
      [numbers[2], 'failed', 1, 'busy'],
      [numbers[3], 'failed', 1, 'no_answer'],
      [numbers[4], 'failed', 1, 'failed'],
    ]);
    for (const k of contacts) {
      expect(k.call_ids).toHaveLength(1);
      expect(k.attempt_history).toEqual([
        {
          attempt: 1,
          call_id: k.call_ids[0],
          call_status: k.last_call_status,
          started_at: expect.any(String),
          ended_at: expect.any(String),
        },
      ]);
    }
    // Each call was asked for with the contact's number, the campaign's agent, its attempt and its variables.
    const starts = it_.app.peers.received
      .filter((r) => r.subject === 'calls.call.start' && r.partnerId === partner.id)
      .map((r) => r.data as Record<string, unknown>);
    expect(starts.map((s) => s.to_number).sort()).toEqual([...numbers].sort());
    for (const s of starts) {
      expect(s).toMatchObject({
        agent_id: partner.agentId,
        client_reference_id: expect.stringMatching(/^cma_/),
        variables: { customer_name: 'Asha' },
      });
    }

    for (const move of [partner.start, partner.pause, partner.resume])
      await expect(move.call(partner, id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(partner.addContacts(id, [callee()])).rejects.toMatchObject({
      code: 'INVALID_STATE',
      status: 409,
      message: 'contacts cannot be added to a completed campaign',
    });
    await it_.app.send('campaigns.campaign.delete', partner.id, { id });
    await expect(partner.campaign(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // Every move was announced: events.campaign.status_updated through the outbox.
    await it_.app.waitForEvent<CampaignStatusUpdatedData>(
      'events.campaign.status_updated',
      (e) => e.data.campaign_id === id && e.data.status === 'completed',
    );
    const events = (await it_.app.events('events.campaign.status_updated'))
      .map((e) => e.event as DomainEvent<CampaignStatusUpdatedData>)
      .filter((e) => e.data.campaign_id === id);
    expect(events.map((e) => [e.data.previous_status, e.data.status])).toEqual([
      ['draft', 'running'],
      ['running', 'paused'],
      ['paused', 'running'],
      ['running', 'completed'],
    ]);
    expect(events[3].data).toMatchObject({
      campaign_id: id,
      agent_id: partner.agentId,
      agent_name: `Agent ${partner.agentId}`,
      total_contacts: 5,
      completed_count: 2,
      failed_count: 3,
      skipped_count: 0,
    });
    expect(events[0].partnerId).toBe(partner.id);
  });
});
