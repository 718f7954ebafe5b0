import { callee, CampaignEventTap, CampaignsPartner, until } from './campaign-fixtures';

// The state table's refusals and messages, counters and events are tested in process
// (apps/campaigns/src/campaigns/campaign-lifecycle.integration-spec.ts); here, the journey through the gateway.
describe('campaign state table: start, pause, resume, completion', () => {
  let partner: CampaignsPartner;
  let tap: CampaignEventTap;

  beforeAll(async () => {
    partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    tap = await CampaignEventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  const post = (id: string, action: string, body?: unknown) =>
    partner.call(`/campaigns/${id}/${action}`, { method: 'POST', body });

  it('validates the optional start body against the contract ranges', async () => {
    const c = await partner.createCampaign({ concurrency_limit: 4, retry_concurrency: 3 });
    await partner.addContacts(c.campaign_id, [callee()]);
    for (const body of [
      { concurrency_limit: 0 },
      { concurrency_limit: 11 },
      { retry_concurrency: -1 },
      { concurrency_limit: 2 },
      { concurrency_limit: 3, retry_concurrency: 4 },
      { speed: 1 },
    ]) {
      const res = await post(c.campaign_id, 'start', body);
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    expect((await partner.campaign(c.campaign_id)).status).toBe('draft');
    const started = await post(c.campaign_id, 'start', { concurrency_limit: 2, retry_concurrency: 1 });
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({
      status: 'running',
      concurrency_limit: 2,
      retry_concurrency: 1,
      started_at: expect.any(String),
    });
  });

  it('follows the state table with the contract’s messages, then completes with counters', async () => {
    const c = await partner.createCampaign({ concurrency_limit: 2 });
    const id = c.campaign_id;
    const pause = await post(id, 'pause');
    expect(pause.status).toBe(409);
    expect(pause.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: 'only running campaigns can be paused',
    });
    const resumeDraft = await post(id, 'resume');
    expect(resumeDraft.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: 'only paused campaigns can be resumed',
    });

    // Completed, voicemail (answered), busy (no retries: failed), no answer, failed.
    const numbers = [callee('77'), callee('04'), callee('02'), callee('01'), callee('03')];
    await partner.addContacts(id, numbers, { customer_name: 'Asha' });
    const started = await post(id, 'start');
    expect(started.status).toBe(200);
    expect(started.body.data.status).toBe('running');
    const again = await post(id, 'start');
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: 'only draft campaigns can start',
    });

    const paused = await post(id, 'pause');
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ status: 'paused', paused_at: expect.any(String) });
    expect((await post(id, 'pause')).body.error.message).toBe('only running campaigns can be paused');
    expect((await post(id, 'start')).body.error.message).toBe('only draft campaigns can start');
    const resumed = await post(id, 'resume');
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.status).toBe('running');

    const done = await partner.waitForStatus(id, 'completed');
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
      const call = await partner.call(`/calls/${k.call_ids[0]}`);
      expect(call.body.data).toMatchObject({
        to_number: k.phone_number,
        agent_id: partner.agent.id,
        client_reference_id: expect.stringMatching(/^cma_/),
      });
      expect(call.body.data.session.variables).toEqual({ customer_name: 'Asha' });
    }

    for (const action of ['start', 'pause', 'resume']) {
      expect((await post(id, action)).body.error.code).toBe('INVALID_STATE');
    }
    const late = await partner.addContacts(id, [callee()]);
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: 'contacts cannot be added to a completed campaign',
    });
    expect((await partner.call(`/campaigns/${id}`, { method: 'DELETE' })).status).toBe(200);

    // Every move was announced: events.campaign.status_updated through the outbox.
    await until(
      'campaign events',
      async () => (tap.campaignEvents(id).length >= 4 ? true : undefined),
      10_000,
    );
    expect(tap.campaignEvents(id).map((e) => [e.data.previous_status, e.data.status])).toEqual([
      ['draft', 'running'],
      ['running', 'paused'],
      ['paused', 'running'],
      ['running', 'completed'],
    ]);
    expect(tap.campaignEvents(id)[3].data).toMatchObject({
      campaign_id: id,
      agent_id: partner.agent.id,
      agent_name: partner.agent.agent_name,
      total_contacts: 5,
      completed_count: 2,
      failed_count: 3,
      skipped_count: 0,
    });
    expect(tap.campaignEvents(id)[0].partnerId).toBe(partner.id);
  });
});
