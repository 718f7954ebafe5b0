// A refused contact's skip against real Postgres, while a settlement of another contact of the same campaign
// holds the campaign row: the skip must take no lock on the campaign row before its counter update, or
// the settlement's FOR UPDATE (completeIfDone) and the skip's update wait for each other: a deadlock that
// Postgres breaks after deadlock_timeout by failing one of them (the campaign stalled for that second and
// the refused attempt stayed claimed until the reconciler's lease ran out).
import { randomUUID } from 'node:crypto';
import { DataSource, QueryRunner } from 'typeorm';
import { CampaignRow } from '../campaigns/campaign-row';
import { AttemptsRepository } from './attempts.repository';
import { ContactOutcomes } from './contact-outcomes';
import { DispatchTestDatabase, openDispatchTestDatabase } from './testing/dispatch-test-database';

describe('skipping a refused contact', () => {
  let setup: DispatchTestDatabase;
  let dataSource: DataSource;
  let outcomes: ContactOutcomes;

  beforeAll(async () => {
    setup = await openDispatchTestDatabase('vap_campaigns_skip');
    dataSource = setup.dataSource;
    // completeIfDone only reads and locks here (the campaign keeps an open contact).
    outcomes = new ContactOutcomes(
      setup.clock,
      setup.lifecycle,
      setup.signal,
      new AttemptsRepository(dataSource),
    );
  }, 60_000);

  afterAll(async () => {
    await setup?.close();
  });

  /** A running campaign with a claimed contact (its attempt dialing) and another still pending. */
  async function campaignWithClaim(): Promise<{
    campaign: CampaignRow;
    attemptId: string;
    contactId: string;
  }> {
    const campaignId = `cmp_${randomUUID()}`;
    const partnerId = randomUUID();
    const [campaign] = (await dataSource.query(
      `INSERT INTO campaigns.campaigns (id, partner_id, name, agent_id, agent_name, concurrency_limit,
         retry_concurrency, retry_count, cooldown_minutes, status, total_contacts)
       VALUES ($1, $2, 'Skip race', $3, 'Agent', 2, 0, 0, 0, 'running', 2) RETURNING *`,
      [campaignId, partnerId, randomUUID()],
    )) as CampaignRow[];
    const contactId = `cnt_${randomUUID()}`;
    await dataSource.query(
      `INSERT INTO campaigns.contacts (id, campaign_id, partner_id, phone_number, status, attempts)
       VALUES ($1, $2, $3, '+919876500001', 'dialing', 1), ($4, $2, $3, '+919876500002', 'pending', 0)`,
      [contactId, campaignId, partnerId, `cnt_${randomUUID()}`],
    );
    const attemptId = `cma_${randomUUID()}`;
    await dataSource.query(
      `INSERT INTO campaigns.attempts (id, campaign_id, contact_id, partner_id, attempt, is_retry, status, lease_until)
       VALUES ($1, $2, $3, $4, 1, false, 'dialing', now() + interval '30 seconds')`,
      [attemptId, campaignId, contactId, partnerId],
    );
    return { campaign, attemptId, contactId };
  }

  async function waitingForLock(): Promise<boolean> {
    const rows = (await dataSource.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    )) as unknown[];
    return rows.length > 0;
  }

  it('waits behind a settlement holding the campaign row without deadlocking it', async () => {
    const { campaign, attemptId, contactId } = await campaignWithClaim();
    const settlement: QueryRunner = dataSource.createQueryRunner();
    await settlement.connect();
    try {
      // The settlement of another contact: its counter update holds the campaign row.
      await settlement.startTransaction();
      // With the bug, the FOR UPDATE below waited for the skip; fail fast instead of at deadlock_timeout.
      await settlement.query(`SET LOCAL lock_timeout = '500ms'`);
      await settlement.query(
        `UPDATE campaigns.campaigns SET completed_count = completed_count + 1, updated_at = now() WHERE id = $1`,
        [campaign.id],
      );

      const skip = dataSource.transaction((em) =>
        outcomes.skipRefused(em, campaign, attemptId, contactId, 'DO_NOT_CALL'),
      );
      for (let i = 0; i < 200 && !(await waitingForLock()); i++) await new Promise((r) => setTimeout(r, 10));
      expect(await waitingForLock()).toBe(true);

      // completeIfDone's lock in the settlement: granted at once, as the skip holds nothing on the row.
      await settlement.query(`SELECT id FROM campaigns.campaigns WHERE id = $1 FOR UPDATE`, [campaign.id]);
      await settlement.commitTransaction();
      await expect(skip).resolves.toBe(true);
    } finally {
      if (settlement.isTransactionActive) await settlement.rollbackTransaction();
      await settlement.release();
    }

    const [contact] = (await dataSource.query(
      `SELECT status, attempts, skip_reason FROM campaigns.contacts WHERE id = $1`,
      [contactId],
    )) as { status: string; attempts: number; skip_reason: string }[];
    expect(contact).toEqual({ status: 'skipped', attempts: 0, skip_reason: 'DO_NOT_CALL' });
    const [counts] = (await dataSource.query(
      `SELECT skipped_count, completed_count FROM campaigns.campaigns WHERE id = $1`,
      [campaign.id],
    )) as { skipped_count: number; completed_count: number }[];
    expect(counts).toEqual({ skipped_count: 1, completed_count: 1 });
    const [attempt] = (await dataSource.query(`SELECT status FROM campaigns.attempts WHERE id = $1`, [
      attemptId,
    ])) as { status: string }[];
    expect(attempt.status).toBe('abandoned');
  });

  it('skips nothing when the claim is no longer open', async () => {
    const { campaign, attemptId, contactId } = await campaignWithClaim();
    await dataSource.query(`UPDATE campaigns.attempts SET status = 'ended' WHERE id = $1`, [attemptId]);
    const skipped = await dataSource.transaction((em) =>
      outcomes.skipRefused(em, campaign, attemptId, contactId, 'DO_NOT_CALL'),
    );
    expect(skipped).toBe(false);
    const [contact] = (await dataSource.query(
      `SELECT status, attempts FROM campaigns.contacts WHERE id = $1`,
      [contactId],
    )) as { status: string; attempts: number }[];
    expect(contact).toEqual({ status: 'dialing', attempts: 1 });
  });
});
