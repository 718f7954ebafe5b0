// A partner's status as other services keep it: partner views carry the gateway's version, so an older view
// that arrives late (a partner event out of order, a command's stale snapshot) never un-suspends a partner,
// and the calls service refuses a suspended partner's start-call whatever the sender believes. That the campaigns
// service keeps the newer view and stops dialling is tested in process (call-events.integration-spec.ts).
import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { adminApi, e2eEnv, Partner } from '../../support';
import { callee, CampaignsPartner, Loose, until } from './campaign-fixtures';

const codec = JSONCodec();

describe('partner status across services', () => {
  let nc: NatsConnection;
  let prefix: string;

  beforeAll(async () => {
    const env = e2eEnv();
    prefix = env.natsPrefix;
    nc = await connect({ servers: env.natsUrl, name: 'e2e-partner-status' });
  });

  afterAll(async () => {
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
});
