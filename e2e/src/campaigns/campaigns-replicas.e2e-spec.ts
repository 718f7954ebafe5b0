import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { freePort, ServiceHandle, startService } from '@vap/testing';
import { e2eEnv } from '../../support';
import { callee, CampaignEventTap, CampaignsPartner, until } from './campaign-fixtures';

/**
 * More campaigns replicas on the run's database and subject prefix, next to the platform's own: together
 * they never exceed the limits, and one killed mid-campaign (SIGKILL, claims in hand) neither loses a
 * contact nor dials one twice.
 */
// Its campaigns run to completion, each waited for up to 180 s: beyond Jest's default 60 s on a loaded machine.
jest.setTimeout(240_000);

describe('campaigns replicas: limits across replicas, a crash mid-campaign', () => {
  const env = e2eEnv();
  const replicas: ServiceHandle[] = [];
  let tap: CampaignEventTap;

  const startReplica = async (label: string) => {
    const handle = await startService('campaigns', {
      port: await freePort(),
      env: {
        // The run's own configuration (time scale, dispatch interval...): these replicas join its queue groups.
        ...env.appEnv,
        // Claims of a killed replica are reconciled after 3 s instead of 30.
        CAMPAIGNS_CLAIM_LEASE_MS: '3000',
        CAMPAIGNS_START_CALL_TIMEOUT_MS: '2000',
      },
      logFile: `${env.logDir}/campaigns-${label}.log`,
    });
    replicas.push(handle);
    return handle;
  };

  beforeAll(async () => {
    tap = await CampaignEventTap.open();
    await Promise.all([startReplica('r1'), startReplica('r2')]);
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop().catch(() => undefined)));
    await tap?.close();
  });

  it('three replicas dispatching two campaigns of one partner never exceed the account limit', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 4 });
    const a = await partner.createCampaign({ concurrency_limit: 3 });
    const b = await partner.createCampaign({ concurrency_limit: 3 });
    const numbers = Array.from({ length: 24 }, () => callee('66'));
    await partner.addContacts(a.campaign_id, numbers.slice(0, 12));
    await partner.addContacts(b.campaign_id, numbers.slice(12));
    expect((await partner.start(a.campaign_id)).status).toBe(200);
    expect((await partner.start(b.campaign_id)).status).toBe(200);
    const doneA = await partner.waitForStatus(a.campaign_id, 'completed', 180_000);
    const doneB = await partner.waitForStatus(b.campaign_id, 'completed', 180_000);
    expect(doneA.completed_count + doneB.completed_count).toBe(24);
    expect(tap.peakInFlight(partner.id)).toBe(4);
    expect(tap.peakAccountActive(partner.id)).toBeLessThanOrEqual(4);
    const byNumber = tap.callsByNumber(partner.id);
    expect(byNumber.size).toBe(24);
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
  });

  it('a replica killed mid-campaign loses no contact and dials none twice', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 5 });
    const numbers = Array.from({ length: 30 }, () => callee('55'));
    await partner.addContacts(c.campaign_id, numbers);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    await until('calls under way', async () => (tap.callsByNumber(partner.id).size >= 6 ? true : undefined));
    const victim = replicas.shift() as ServiceHandle;
    await victim.stop('SIGKILL');
    await startReplica('r3');
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 180_000);
    expect(done).toMatchObject({
      total_contacts: 30,
      completed_count: 30,
      failed_count: 0,
      skipped_count: 0,
    });
    const byNumber = tap.callsByNumber(partner.id);
    expect([...byNumber.keys()].sort()).toEqual([...numbers].sort());
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
    const contacts = await partner.contacts(c.campaign_id);
    for (const k of contacts)
      expect({ n: k.phone_number, attempts: k.attempts, calls: k.call_ids.length }).toEqual({
        n: k.phone_number,
        attempts: 1,
        calls: 1,
      });
    expect(tap.peakInFlight(partner.id)).toBeLessThanOrEqual(5);
  });

  it('a claim left by a crash before its call was placed is released after its lease and dialled once', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 1 });
    const numbers = [callee('44'), callee('44')];
    await partner.addContacts(c.campaign_id, numbers);
    const [first] = await partner.contacts(c.campaign_id);
    // What a replica leaves when it dies between claiming a contact and asking the calls service to dial.
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      await db.query(`UPDATE campaigns.contacts SET status = 'dialing', attempts = 1 WHERE id = $1`, [
        first.contact_id,
      ]);
      await db.query(
        `INSERT INTO campaigns.attempts (id, campaign_id, contact_id, partner_id, attempt, is_retry, status, lease_until)
         VALUES ($1, $2, $3, $4, 1, false, 'dialing', now() + interval '2 seconds')`,
        [`cma_${randomUUID()}`, c.campaign_id, first.contact_id, partner.id],
      );
    } finally {
      await db.end();
    }
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    const done = await partner.waitForStatus(c.campaign_id, 'completed', 120_000);
    expect(done.completed_count).toBe(2);
    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.map((k) => [k.phone_number, k.attempts, k.call_ids.length])).toEqual([
      [numbers[0], 1, 1],
      [numbers[1], 1, 1],
    ]);
    // Dialled once each: the released claim did not count as an attempt.
    const byNumber = tap.callsByNumber(partner.id);
    expect(byNumber.get(numbers[0])).toHaveLength(1);
    expect(byNumber.get(numbers[1])).toHaveLength(1);
  });
});
