// The dispatcher against real Postgres: an account slot that the campaign which released it cannot use goes
// to the partner's other campaigns at once, not at the next poll (whose timer is not started here: a test
// runs it by hand); the poll runs passes only for campaigns that could dial. The calls service is outside
// this test: the placer only records what it was asked to dial.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PartnerSnapshots } from '../partners/partner-snapshots';
import { AttemptsRepository } from './attempts.repository';
import { CallPlacer } from './call-placer';
import { Claim, DispatchClaims } from './dispatch-claims';
import { DispatchTestDatabase, openDispatchTestDatabase } from './testing/dispatch-test-database';
import { Dispatcher } from './dispatcher.service';

describe('dispatcher (Postgres)', () => {
  let setup: DispatchTestDatabase;
  let dataSource: DataSource;
  let dispatcher: Dispatcher;
  let claims: DispatchClaims;
  const placed: { campaignId: string; claim: Claim }[] = [];

  beforeAll(async () => {
    setup = await openDispatchTestDatabase('vap_campaigns_dispatcher');
    dataSource = setup.dataSource;
    const { config, clock, lifecycle, signal } = setup;
    // Claims only pause a campaign of an account that is not approved, which none here is.
    claims = new DispatchClaims(dataSource, config, clock, new PartnerSnapshots(dataSource), lifecycle);
    const placer = {
      place: async (campaign: { id: string }, _partner: unknown, claim: Claim) => {
        placed.push({ campaignId: campaign.id, claim });
      },
    } as unknown as CallPlacer;
    dispatcher = new Dispatcher(
      dataSource,
      config,
      clock,
      undefined as never,
      claims,
      placer,
      new AttemptsRepository(dataSource),
      lifecycle,
      signal,
    );
  }, 60_000);

  afterAll(async () => {
    await dispatcher?.beforeApplicationShutdown();
    await setup?.close();
  });

  /**
   * A partner whose account allows one call, held by campaign A's last contact (its call in flight), and
   * campaign B with a contact waiting for that slot.
   */
  async function accountFullOfA(): Promise<{ a: string; b: string; attemptOfA: string; contactOfB: string }> {
    const partnerId = randomUUID();
    await new PartnerSnapshots(dataSource).save({
      id: partnerId,
      status: 'approved',
      voiceTier: 'standard',
      concurrencyLimit: 1,
      balancePaise: 1_000_000,
      pricePerMinutePaise: null,
      version: 1,
    });
    const campaign = async (name: string) => {
      const id = `cmp_${randomUUID()}`;
      await dataSource.query(
        `INSERT INTO campaigns.campaigns (id, partner_id, name, agent_id, agent_name, phone_numbers,
           concurrency_limit, retry_concurrency, retry_count, cooldown_minutes, status, started_at)
         VALUES ($1, $2, $3, $4, 'Agent', $5, 1, 0, 0, 0, 'running', now())`,
        [id, partnerId, name, randomUUID(), JSON.stringify([{ phone_number_id: randomUUID() }])],
      );
      return id;
    };
    const a = await campaign('A');
    const b = await campaign('B');
    const contactOfA = `cnt_${randomUUID()}`;
    const contactOfB = `cnt_${randomUUID()}`;
    await dataSource.query(
      `INSERT INTO campaigns.contacts (id, campaign_id, partner_id, phone_number, status, attempts, next_attempt_at)
       VALUES ($1, $2, $3, '+919876500011', 'dialing', 1, NULL), ($4, $5, $3, '+919876500012', 'pending', 0, now())`,
      [contactOfA, a, partnerId, contactOfB, b],
    );
    const attemptOfA = `cma_${randomUUID()}`;
    await dataSource.query(
      `INSERT INTO campaigns.attempts (id, campaign_id, contact_id, partner_id, attempt, is_retry, status, lease_until)
       VALUES ($1, $2, $3, $4, 1, false, 'active', now() + interval '30 seconds')`,
      [attemptOfA, a, contactOfA, partnerId],
    );
    return { a, b, attemptOfA, contactOfB };
  }

  /** What the released call's settlement does to the rows (the contact and attempt end). */
  async function release(attemptId: string): Promise<void> {
    await dataSource.query(`UPDATE campaigns.attempts SET status = 'ended', ended_at = now() WHERE id = $1`, [
      attemptId,
    ]);
    await dataSource.query(
      `UPDATE campaigns.contacts SET status = 'completed' WHERE id = (SELECT contact_id FROM campaigns.attempts WHERE id = $1)`,
      [attemptId],
    );
  }

  async function settled(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      if ((dispatcher as unknown as { passes: Map<string, unknown> }).passes.size === 0) return;
    }
    throw new Error('dispatch passes did not finish');
  }

  it('goes to the partner’s other campaign when the releasing campaign has nothing left', async () => {
    const { a, b, attemptOfA, contactOfB } = await accountFullOfA();
    // While A holds the account's only slot, B gets nothing.
    dispatcher.kick(b, 'signal');
    await settled();
    expect(placed.filter((p) => p.campaignId === b)).toHaveLength(0);

    await release(attemptOfA);
    dispatcher.kick(a, 'signal');
    await settled();
    const dialled = placed.filter((p) => p.campaignId === b);
    expect(dialled.map((p) => p.claim.contactId)).toEqual([contactOfB]);
    const [contact] = (await dataSource.query(`SELECT status FROM campaigns.contacts WHERE id = $1`, [
      contactOfB,
    ])) as { status: string }[];
    expect(contact.status).toBe('dialing');
  });

  it('is left to the poll by a pass that no release signalled, so campaigns never kick each other round', async () => {
    const { a, b, attemptOfA } = await accountFullOfA();
    await release(attemptOfA);
    dispatcher.kick(a, 'poll');
    await settled();
    expect(placed.filter((p) => p.campaignId === b)).toHaveLength(0);
  });

  it('polls only the campaigns that have a contact due and a free slot in the campaign and the account', async () => {
    // A and B as above: A's call holds the account's only slot, B waits for it. C, another partner's, is free.
    const { a, b, attemptOfA } = await accountFullOfA();
    const { b: c, attemptOfA: otherAccountsCall } = await accountFullOfA();
    await release(otherAccountsCall);
    const claim = jest.spyOn(claims, 'claim');
    try {
      const poll = () => (dispatcher as unknown as { poll(): Promise<void> }).poll();
      await poll();
      await settled();
      const polled = () => claim.mock.calls.map(([id]) => id);
      expect(polled()).toContain(c);
      expect(polled()).not.toContain(b);
      expect(polled()).not.toContain(a);
      expect(placed.filter((p) => p.campaignId === c)).toHaveLength(1);

      // Once A's call released its slot (say on another replica, whose signal this one never hears), B is polled.
      await release(attemptOfA);
      claim.mockClear();
      await poll();
      await settled();
      expect(polled()).toContain(b);
      expect(placed.filter((p) => p.campaignId === b)).toHaveLength(1);
    } finally {
      claim.mockRestore();
    }
  });
});
