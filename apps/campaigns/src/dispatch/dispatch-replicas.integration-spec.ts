// Several campaigns replicas on one database and subject prefix (the app started twice more in process): together
// they keep the account's limits and dial each contact once; a claim a crashed replica left is reconciled.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { callee, CampaignsUnderTest } from '../testing/campaigns-integration';

describe('campaigns replicas: limits across replicas, a claim left by a crash', () => {
  const it_ = useIntegrationApp(() => CampaignsUnderTest.start());

  beforeAll(async () => {
    await it_.app.replica();
    await it_.app.replica();
  });

  afterEach(() => {
    expect(it_.app.peers.unanswered).toEqual([]);
  });

  it('three replicas dispatching two campaigns of one partner never exceed the account limit', async () => {
    const partner = await it_.partner({ concurrencyLimit: 4 });
    const a = await partner.createCampaign({ concurrency_limit: 3 });
    const b = await partner.createCampaign({ concurrency_limit: 3 });
    const numbers = Array.from({ length: 24 }, () => callee());
    await partner.addContacts(a.campaign_id, numbers.slice(0, 12));
    await partner.addContacts(b.campaign_id, numbers.slice(12));
    await partner.start(a.campaign_id);
    await partner.start(b.campaign_id);
    await it_.calls.waitForLive(partner.id, 4);
    const [doneA, doneB] = await Promise.all([
      partner.runToCompletion(a.campaign_id),
      partner.runToCompletion(b.campaign_id),
    ]);
    expect(doneA.completed_count + doneB.completed_count).toBe(24);
    expect(it_.calls.peakInFlight(partner.id)).toBe(4);
    // No replica asked past the account's limit: calls refused no start as over it.
    expect(it_.calls.refusals).not.toContainEqual(
      expect.objectContaining({ code: ErrorCode.LIMIT_REACHED, partnerId: partner.id }),
    );
    const byNumber = it_.calls.callsByNumber(partner.id);
    expect(byNumber.size).toBe(24);
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
  });

  it('a claim left by a crash before its call was placed is released after its lease and dialled once', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 1 });
    const numbers = [callee(), callee()];
    await partner.addContacts(c.campaign_id, numbers);
    const [first] = await partner.contacts(c.campaign_id);
    // What a replica leaves when it dies between claiming a contact and asking the calls service to dial.
    const attemptId = `cma_${randomUUID()}`;
    const db = it_.app.get(DataSource);
    await db.query(`UPDATE campaigns.contacts SET status = 'dialing', attempts = 1 WHERE id = $1`, [
      first.contact_id,
    ]);
    await db.query(
      `INSERT INTO campaigns.attempts (id, campaign_id, contact_id, partner_id, attempt, is_retry, status, lease_until)
       VALUES ($1, $2, $3, $4, 1, false, 'dialing', $5)`,
      [
        attemptId,
        c.campaign_id,
        first.contact_id,
        partner.id,
        new Date(it_.app.clock.now().getTime() + 2000),
      ],
    );
    await partner.start(c.campaign_id);
    // Past the lease, a replica asks calls whether the attempt's call exists; it does not, so the claim is freed.
    it_.app.clock.advance(2001);
    const done = await partner.runToCompletion(c.campaign_id);
    expect(done.completed_count).toBe(2);
    expect(it_.app.peers.received).toContainEqual(
      expect.objectContaining({
        subject: 'calls.call.list',
        partnerId: partner.id,
        data: expect.objectContaining({ client_reference_id: attemptId }),
      }),
    );
    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.map((k) => [k.phone_number, k.attempts, k.call_ids.length])).toEqual([
      [numbers[0], 1, 1],
      [numbers[1], 1, 1],
    ]);
    // Dialled once each: the released claim did not count as an attempt.
    const byNumber = it_.calls.callsByNumber(partner.id);
    expect(byNumber.get(numbers[0])).toHaveLength(1);
    expect(byNumber.get(numbers[1])).toHaveLength(1);
  });
});
