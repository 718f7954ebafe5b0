// A campaign call carries its attempt id (cma_...) as client_reference_id, and client_reference_id is the
// caller's to choose: another account placing a call that names this account's attempt must not link to
// it or settle it.
import { callee, CampaignsPartner, Loose, sleep, until } from './campaign-fixtures';

describe('campaign attempts and forged client_reference_id', () => {
  it('another account’s call naming this account’s attempt neither links to nor settles it', async () => {
    const owner = await CampaignsPartner.create();
    const c = await owner.createCampaign({ concurrency_limit: 1 });
    // 07: the callee talks until the agent's maximum duration, so the attempt stays in flight.
    await owner.addContacts(c.campaign_id, [callee('07')]);
    expect((await owner.start(c.campaign_id)).status).toBe(200);
    const ownCall = await until('the campaign call in progress', async () => {
      const calls = (await owner.call('/calls')).body.data.calls as Loose[];
      return calls.find((call) => call.status === 'in_progress');
    });
    const attemptId = ownCall.client_reference_id as string;
    expect(attemptId).toMatch(/^cma_/);
    const [before] = await owner.contacts(c.campaign_id);
    expect(before).toMatchObject({ status: 'dialing', call_ids: [ownCall.call_id] });

    // The forger's call names the attempt and ends at once, unanswered (01), releasing its concurrency.
    const forger = await CampaignsPartner.create();
    const forged = await forger.call('/calls/start', {
      method: 'POST',
      body: { agent_id: forger.agent.id, to_number: callee('01'), client_reference_id: attemptId },
    });
    expect(forged.status).toBe(200);
    await until('the forged call to end', async () => {
      const call = (await forger.call(`/calls/${forged.body.data.call_id}`)).body.data as Loose;
      return call.status === 'no_answer' ? call : undefined;
    });
    await sleep(1500); // the campaigns service's consumer has had the terminal event

    const [after] = await owner.contacts(c.campaign_id);
    expect(after).toMatchObject({ status: 'dialing', attempts: 1, call_ids: [ownCall.call_id] });
    expect(after.attempt_history).toEqual([
      expect.objectContaining({ call_id: ownCall.call_id, call_status: null, ended_at: null }),
    ]);
    await owner.call(`/campaigns/${c.campaign_id}/pause`, { method: 'POST' });
  }, 90_000);
});
