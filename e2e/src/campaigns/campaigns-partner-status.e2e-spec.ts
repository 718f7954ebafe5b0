// A partner's status as other services keep it: partner views carry the gateway's version, so an older view
// that arrives late (a partner event out of order, a command's stale snapshot) never un-suspends a partner,
// and the calls service refuses a suspended partner's start-call whatever the sender believes.
import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { adminApi, e2eEnv, Partner } from '../../support';
import { callee, CampaignEventTap, CampaignsPartner, Loose, sleep, until } from './campaign-fixtures';

const codec = JSONCodec();

describe('partner status across services', () => {
  let nc: NatsConnection;
  let prefix: string;
  let tap: CampaignEventTap;

  beforeAll(async () => {
    const env = e2eEnv();
    prefix = env.natsPrefix;
    nc = await connect({ servers: env.natsUrl, name: 'e2e-partner-status' });
    tap = await CampaignEventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
    await nc?.close();
  });

  async function operatorPartner(id: string): Promise<Partner> {
    const res = await adminApi(`/partners/${id}`);
    if (res.status !== 200) throw new Error(`GET partner answered ${res.status}`);
    return res.body.data as Partner;
  }

  async function setStatus(id: string, status: string): Promise<Partner> {
    const res = await adminApi(`/partners/${id}`, { method: 'PATCH', body: { status } });
    if (res.status !== 200)
      throw new Error(`PATCH partner answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data as Partner;
  }

  /** calls.call.start as campaigns sends it: with the sender's own (here: stale) view of the partner. */
  async function startCall(partner: Partner, agentId: string): Promise<Loose> {
    const context = {
      id: partner.id,
      status: partner.status,
      voiceTier: 'standard',
      concurrencyLimit: partner.concurrency_limit,
      balancePaise: Math.round(partner.balance_inr * 100),
      version: partner.version,
    };
    const msg = await nc.request(
      `${prefix}.calls.call.start`,
      codec.encode({
        partnerId: partner.id,
        partner: context,
        requestId: randomUUID(),
        data: { agent_id: agentId, to_number: callee('01') },
      }),
      { timeout: 10_000 },
    );
    return codec.decode(msg.data) as Loose;
  }

  it('an internal calls.call.start for a suspended partner is refused with 403 FORBIDDEN', async () => {
    const p = await CampaignsPartner.create();
    const approved = await operatorPartner(p.id);
    const suspended = await setStatus(p.id, 'suspended');

    // The sender still believes the partner approved: the calls service decides on its own view.
    const reply = await until(
      'the calls service to refuse the suspended partner',
      async () => {
        const r = await startCall(approved, p.agent.id);
        return r.ok === false ? r : undefined;
      },
      20_000,
    );
    expect(reply.error.code).toBe('FORBIDDEN');
    expect(reply.error.message).toMatch(/suspended/);
    expect(suspended.version).toBeGreaterThan(approved.version as number);
  }, 60_000);

  it('an out-of-order older partner event does not un-suspend: the running campaign stops dialling', async () => {
    const p = await CampaignsPartner.create({ concurrency_limit: 1 });
    const campaign = await p.createCampaign({ concurrency_limit: 1 });
    const numbers = Array.from({ length: 40 }, () => callee('01'));
    expect((await p.addContacts(campaign.campaign_id, numbers)).status).toBe(200);
    expect((await p.start(campaign.campaign_id)).status).toBe(200);
    await until('a first campaign call', async () => (tap.callEvents(p.id).length > 0 ? true : undefined));
    const before = await operatorPartner(p.id);

    // Wait for the suspension's own event on the stream, then replay the older view right behind it.
    const seen = nc.subscribe(`${prefix}.events.partner.updated`);
    await nc.flush();
    const suspended = await setStatus(p.id, 'suspended');
    for await (const m of seen) {
      const event = codec.decode(m.data) as Loose;
      if (event.partnerId === p.id && event.data.status === 'suspended') break;
    }
    const stale = {
      id: randomUUID(),
      subject: 'events.partner.updated',
      partnerId: p.id,
      occurredAt: new Date().toISOString(),
      data: before,
    };
    await nc
      .jetstream()
      .publish(`${prefix}.events.partner.updated`, codec.encode(stale), { msgID: stale.id });

    const paused = await until(
      'the campaign to pause',
      async () =>
        tap.events.find(
          (e) =>
            e.partnerId === p.id &&
            e.subject === 'events.campaign.status_updated' &&
            e.data.status === 'paused',
        ),
      30_000,
    );
    // Nothing is dialled once it paused, whatever arrived after the suspension.
    await sleep(4000);
    const pausedAt = Date.parse(paused.occurredAt);
    const list = await nc.request(
      `${prefix}.calls.call.list`,
      codec.encode({ partnerId: p.id, requestId: randomUUID(), data: { limit: 100 } }),
      { timeout: 10_000 },
    );
    const calls = (codec.decode(list.data) as Loose).data.calls as Loose[];
    expect(calls.filter((c) => Date.parse(c.created_at) > pausedAt + 500)).toEqual([]);
    expect(suspended.version).toBeGreaterThan(before.version as number);
  }, 120_000);
});
