// GET /campaigns/{id} against real Postgres, with the campaign's last dialing contact settling between the
// read of the campaign row and the read of its waits: the answer must come from one snapshot. Read apart,
// it said "waiting for the window, nothing in flight" with a completed_count that missed the contact that
// had just completed.
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { CampaignReferences } from './campaign-references';
import { CampaignRow, CampaignWait } from './campaign-row';
import { CampaignWaits } from './campaign-waits';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';
import { DispatchTestDatabase, openDispatchTestDatabase } from '../dispatch/testing/dispatch-test-database';

describe('reading a campaign while a contact settles', () => {
  let setup: DispatchTestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    setup = await openDispatchTestDatabase('vap_campaigns_read_snapshot');
    dataSource = setup.dataSource;
  }, 60_000);

  afterAll(async () => {
    await setup?.close();
  });

  /** A running campaign: one contact completed, one dialing, one waiting for its calling window. */
  async function campaignMidway(): Promise<{ partnerId: string; campaignId: string; dialingId: string }> {
    const campaignId = `cmp_${randomUUID()}`;
    const partnerId = randomUUID();
    await dataSource.query(
      `INSERT INTO campaigns.campaigns (id, partner_id, name, agent_id, agent_name, concurrency_limit,
         retry_concurrency, retry_count, cooldown_minutes, status, total_contacts, completed_count)
       VALUES ($1, $2, 'Snapshot', $3, 'Agent', 2, 0, 0, 0, 'running', 3, 1)`,
      [campaignId, partnerId, randomUUID()],
    );
    const dialingId = `cnt_${randomUUID()}`;
    await dataSource.query(
      `INSERT INTO campaigns.contacts (id, campaign_id, partner_id, phone_number, status, attempts, wait_reason, next_attempt_at)
       VALUES ($1, $2, $3, '+919876500001', 'completed', 1, NULL, NULL),
              ($4, $2, $3, '+919876500002', 'dialing', 1, NULL, NULL),
              ($5, $2, $3, '+919876500003', 'pending', 0, $6, now() + interval '1 hour')`,
      [
        `cnt_${randomUUID()}`,
        campaignId,
        partnerId,
        dialingId,
        `cnt_${randomUUID()}`,
        ErrorCode.OUTSIDE_CALLING_WINDOW,
      ],
    );
    return { partnerId, campaignId, dialingId };
  }

  /** Settles the dialing contact (on a connection of its own) just before the waits are read. */
  function settlingBeforeWaits(campaignId: string, dialingId: string): CampaignWaits {
    const waits = new CampaignWaits(dataSource);
    const read = waits.of.bind(waits);
    waits.of = async (rows: CampaignRow[], em?: EntityManager): Promise<Map<string, CampaignWait>> => {
      await dataSource.transaction(async (settle) => {
        await settle.query(`UPDATE campaigns.contacts SET status = 'completed' WHERE id = $1`, [dialingId]);
        await settle.query(
          `UPDATE campaigns.campaigns SET completed_count = completed_count + 1 WHERE id = $1`,
          [campaignId],
        );
      });
      return read(rows, em);
    };
    return waits;
  }

  /** The service, reading waits through `waits` (reads never use the references). */
  const serviceWith = (waits: CampaignWaits) =>
    new CampaignsService(
      dataSource,
      new CampaignsRepository(dataSource),
      undefined as unknown as CampaignReferences,
      waits,
      setup.clock,
    );

  it('shows the counters and the wait of one moment', async () => {
    const { partnerId, campaignId, dialingId } = await campaignMidway();
    const service = serviceWith(settlingBeforeWaits(campaignId, dialingId));

    const read = await service.get(partnerId, campaignId);
    // The moment before the settlement: one completed and one still in flight, so not waiting.
    expect(read).toMatchObject({ completed_count: 1, waiting_reason: null });

    // The next read sees the settlement whole.
    const again = await serviceWith(new CampaignWaits(dataSource)).get(partnerId, campaignId);
    expect(again).toMatchObject({ completed_count: 2, waiting_reason: 'waiting_for_window' });
  });

  it('lists campaigns with counters and waits of one moment too', async () => {
    const { partnerId, campaignId, dialingId } = await campaignMidway();
    const service = serviceWith(settlingBeforeWaits(campaignId, dialingId));

    const page = await service.list(partnerId, {});
    expect(page.campaigns).toHaveLength(1);
    expect(page.campaigns[0]).toMatchObject({ completed_count: 1, waiting_reason: null });
  });
});
