import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CampaignStatus } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { KeysetColumns, KeysetPager, KeysetPageResult, PageQuery, tableOf } from '@vap/persistence';
import { CampaignRow } from './campaign-row';

/** Columns a create or an update writes. */
export type CampaignFields = Pick<
  CampaignRow,
  | 'name'
  | 'description'
  | 'agent_id'
  | 'agent_name'
  | 'provider'
  | 'phone_numbers'
  | 'concurrency_limit'
  | 'retry_concurrency'
  | 'retry_count'
  | 'cooldown_minutes'
  | 'retry_delays_minutes'
  | 'callback_enabled'
  | 'calling_window'
>;

/** A contact `c` waiting on the contact policy and not yet due at $2 (now): what a recheck makes due. */
const POLICY_WAIT_NOT_DUE = `c.status IN ('pending', 'retry_wait') AND c.wait_reason IS NOT NULL AND c.next_attempt_at > $2`;

/** SQL of campaigns.campaigns. Every read is scoped by partner: another partner's campaign is absent. */
@Injectable()
export class CampaignsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    em: EntityManager,
    id: string,
    partnerId: string,
    type: string,
    f: CampaignFields,
  ): Promise<CampaignRow> {
    const [row] = (await em.query(
      `INSERT INTO ${tableOf(em, 'campaigns')} (id, partner_id, type, name, description, agent_id, agent_name, provider,
         phone_numbers, concurrency_limit, retry_concurrency, retry_count, cooldown_minutes, retry_delays_minutes,
         callback_enabled, calling_window)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING *`,
      [id, partnerId, type, ...fieldValues(f)],
    )) as CampaignRow[];
    return row;
  }

  async update(em: EntityManager, id: string, f: CampaignFields): Promise<CampaignRow> {
    const [rows] = (await em.query(
      `UPDATE ${tableOf(em, 'campaigns')} SET name = $2, description = $3, agent_id = $4, agent_name = $5, provider = $6,
         phone_numbers = $7, concurrency_limit = $8, retry_concurrency = $9, retry_count = $10,
         cooldown_minutes = $11, retry_delays_minutes = $12, callback_enabled = $13, calling_window = $14,
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, ...fieldValues(f)],
    )) as [CampaignRow[], number];
    return rows[0];
  }

  async find(
    partnerId: string,
    id: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<CampaignRow> {
    const [row] = (await em.query(
      `SELECT * FROM ${tableOf(em, 'campaigns')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    )) as CampaignRow[];
    if (!row) throw AppError.notFound('Campaign');
    return row;
  }

  /** The campaign locked for a state change: concurrent starts, pauses and completions queue up here. */
  async lock(em: EntityManager, partnerId: string, id: string): Promise<CampaignRow> {
    const [row] = (await em.query(
      `SELECT * FROM ${tableOf(em, 'campaigns')} WHERE id = $1 AND partner_id = $2 FOR UPDATE`,
      [id, partnerId],
    )) as CampaignRow[];
    if (!row) throw AppError.notFound('Campaign');
    return row;
  }

  /** One page of the partner's campaigns, newest first. */
  async list(
    partnerId: string,
    query: PageQuery,
    status?: CampaignStatus,
    em: EntityManager = this.dataSource.manager,
    agentIds?: string[],
  ): Promise<KeysetPageResult<CampaignRow>> {
    const pager = new KeysetPager(query, { idKind: 'prefixed', direction: 'DESC' });
    const params: unknown[] = [partnerId, pager.fetch];
    let where = 'partner_id = $1';
    if (status) {
      params.push(status);
      where += ` AND status = $${params.length}`;
    }
    if (agentIds) {
      params.push(agentIds);
      where += ` AND agent_id = ANY($${params.length}::uuid[])`;
    }
    const after = pager.condition((value) => {
      params.push(value);
      return `$${params.length}`;
    });
    if (after) where += ` AND ${after}`;
    const rows = (await em.query(
      `SELECT *, ${pager.select} FROM ${tableOf(em, 'campaigns')} WHERE ${where} ORDER BY ${pager.orderBy} LIMIT $2`,
      params,
    )) as (CampaignRow & KeysetColumns)[];
    return pager.page(rows);
  }

  async setStatus(
    em: EntityManager,
    id: string,
    status: CampaignStatus,
    extra: {
      started?: boolean;
      paused?: boolean;
      completed?: boolean;
      pauseReason?: string | null;
      concurrency?: [number, number];
    },
  ): Promise<CampaignRow> {
    const [rows] = (await em.query(
      `UPDATE ${tableOf(em, 'campaigns')} SET status = $2,
         started_at = CASE WHEN $3 THEN now() ELSE started_at END,
         paused_at = CASE WHEN $4 THEN now() ELSE paused_at END,
         completed_at = CASE WHEN $5 THEN now() ELSE completed_at END,
         pause_reason = $6,
         concurrency_limit = COALESCE($7, concurrency_limit),
         retry_concurrency = COALESCE($8, retry_concurrency),
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        id,
        status,
        !!extra.started,
        !!extra.paused,
        !!extra.completed,
        extra.pauseReason ?? null,
        extra.concurrency?.[0] ?? null,
        extra.concurrency?.[1] ?? null,
      ],
    )) as [CampaignRow[], number];
    return rows[0];
  }

  /**
   * Contacts waiting on the contact policy (a calling window, a frequency cap) become due now, so the next
   * dispatch asks the calls service again under the settings as they are: after a resume or a new window.
   */
  async recheckPolicyWaits(em: EntityManager, id: string, now: Date): Promise<void> {
    await em.query(
      `UPDATE ${tableOf(em, 'contacts')} c SET next_attempt_at = $2, updated_at = now()
        WHERE c.campaign_id = $1 AND ${POLICY_WAIT_NOT_DUE}`,
      [id, now],
    );
  }

  /**
   * recheckPolicyWaits for every running campaign of a partner whose account settings changed: window waits
   * only where the campaign has no window of its own (which overrides the account's), cap waits everywhere.
   * Returns the campaigns that have contacts due now.
   */
  async recheckPartnerPolicyWaits(em: EntityManager, partnerId: string, now: Date): Promise<string[]> {
    const rows = (await em.query(
      `WITH due AS (
         UPDATE ${tableOf(em, 'contacts')} c SET next_attempt_at = $2, updated_at = now()
           FROM ${tableOf(em, 'campaigns')} k
          WHERE k.id = c.campaign_id AND k.partner_id = $1 AND k.status = 'running'
            AND ${POLICY_WAIT_NOT_DUE}
            AND (c.wait_reason <> $3 OR k.calling_window IS NULL)
          RETURNING c.campaign_id)
       SELECT DISTINCT campaign_id FROM due`,
      [partnerId, now, ErrorCode.OUTSIDE_CALLING_WINDOW],
    )) as { campaign_id: string }[];
    return rows.map((r) => r.campaign_id);
  }

  async delete(em: EntityManager, id: string): Promise<void> {
    await em.query(`DELETE FROM ${tableOf(em, 'campaigns')} WHERE id = $1`, [id]);
  }
}

/** The editable fields in the column order of INSERT ($4..$16) and UPDATE ($2..$14). */
function fieldValues(f: CampaignFields): unknown[] {
  return [
    f.name,
    f.description,
    f.agent_id,
    f.agent_name,
    f.provider,
    JSON.stringify(f.phone_numbers),
    f.concurrency_limit,
    f.retry_concurrency,
    f.retry_count,
    f.cooldown_minutes,
    f.retry_delays_minutes,
    f.callback_enabled,
    f.calling_window === null ? null : JSON.stringify(f.calling_window),
  ];
}
