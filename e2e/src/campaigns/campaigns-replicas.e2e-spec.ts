import { freePort, ServiceHandle, startService } from '@vap/testing';
import { e2eEnv } from '../../support';
import { HANGS_UP_AFTER_INTRO } from '../calls/call-fixtures';
import { callee, CampaignEventTap, CampaignsPartner, until } from './campaign-fixtures';

/**
 * More campaigns replicas on the run's database and subject prefix, next to the platform's own: one killed
 * mid-campaign (SIGKILL, claims in hand) neither loses a contact nor dials one twice. Limits across replicas and
 * a claim left before its call was placed are tested in process (dispatch-replicas.integration-spec.ts).
 */
// Its campaigns run to completion, each waited for up to 180 s: beyond Jest's default 60 s on a loaded machine.
jest.setTimeout(240_000);

describe('campaigns replicas: a crash mid-campaign', () => {
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

  it('a replica killed mid-campaign loses no contact and dials none twice', async () => {
    const partner = await CampaignsPartner.create({ concurrency_limit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 5 });
    // Short calls: their conversation is not what this tests.
    const numbers = Array.from({ length: 30 }, () => callee(HANGS_UP_AFTER_INTRO));
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
});
