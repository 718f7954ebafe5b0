import { createHmac } from 'node:crypto';
import { HttpsReceiver, startHttpsReceiver } from '../../support';
import { callee, CampaignsPartner, Loose } from './campaign-fixtures';

describe('campaign status changes reach webhooks as campaign.status.updated', () => {
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('delivers every move, signed, to an endpoint that allows the event', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const endpoint = await partner.call('/config/webhooks', {
      method: 'POST',
      body: { label: 'campaigns', url: `${receiver.url}/hooks`, events: ['campaign.status.updated'] },
    });
    expect(endpoint.status).toBe(200);
    const secret: string = endpoint.body.data.secret;
    const c = await partner.createCampaign({ concurrency_limit: 2 });
    await partner.addContacts(c.campaign_id, [callee('77'), callee('02')]);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    await partner.waitForStatus(c.campaign_id, 'completed');

    const mine = async () => {
      await receiver.waitForRequests(1, 30_000);
      return receiver.requests.filter(
        (r) => (r.json as Loose | undefined)?.data?.campaign_id === c.campaign_id,
      );
    };
    let deliveries = await mine();
    for (let i = 0; i < 60 && deliveries.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 250));
      deliveries = await mine();
    }
    const bodies = deliveries.map((r) => r.json as Loose);
    expect(bodies.map((b) => b.event)).toEqual(['campaign.status.updated', 'campaign.status.updated']);
    expect(bodies.map((b) => [b.data.previous_status, b.data.status]).sort()).toEqual([
      ['draft', 'running'],
      ['running', 'completed'],
    ]);
    const completed = bodies.find((b) => b.data.status === 'completed') as Loose;
    expect(completed.data).toMatchObject({
      campaign_id: c.campaign_id,
      agent_id: partner.agent.id,
      total_contacts: 2,
      completed_count: 1,
      failed_count: 1,
      skipped_count: 0,
    });
    for (const r of deliveries) {
      const timestamp = r.headers['x-webhook-timestamp'] as string;
      const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${r.rawBody}`).digest('hex')}`;
      expect(r.headers['x-webhook-signature']).toBe(expected);
    }
  });
});
