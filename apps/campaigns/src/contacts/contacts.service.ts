import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AddContactsBatch,
  CAMPAIGN_MAX_CONTACTS_PER_UPLOAD,
  CampaignContactDto,
  CampaignStateMessages,
  candidateFromJson,
  ContactCandidate,
  ContactListDto,
  ContactRowReportDto,
  ContactStatus,
  contactsUploadReport,
  ContactsUploadReportDto,
  ListContactsQueryDto,
} from '@vap/api';
import { AppError, ErrorCode, messageBatches } from '@vap/messages';
import { KeysetColumns, KeysetPager, tableOf } from '@vap/persistence';
import { CampaignsRepository } from '../campaigns/campaigns.repository';
import { CampaignClock } from '../clock/campaign-clock';
import { DispatchSignal } from '../dispatch/dispatch-signal';

interface ContactRow {
  id: string;
  seq: string;
  phone_number: string;
  variables: Record<string, unknown>;
  external_id: string | null;
  status: ContactStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_call_status: string | null;
  skip_reason: string | null;
  wait_reason: string | null;
  timezone: string | null;
  created_at: Date;
  updated_at: Date;
}

interface AttemptRow {
  contact_id: string;
  attempt: number;
  call_id: string | null;
  call_status: string | null;
  created_at: Date;
  ended_at: Date | null;
}

/** A campaign's contacts: uploads judged row by row, and the per-contact progress. */
@Injectable()
export class ContactsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly campaigns: CampaignsRepository,
    private readonly clock: CampaignClock,
    private readonly signal: DispatchSignal,
  ) {}

  /**
   * One batch of an upload (AddContactsBatch), in one transaction: its rows are judged again (whoever sent
   * them), and a number already in the campaign, by an earlier batch of the same upload too, or earlier in the
   * batch, is a duplicate, so the batches of an upload, sent one after the other, report what one transaction
   * would. An upload that fails part-way keeps its earlier batches.
   */
  async add(partnerId: string, batch: AddContactsBatch): Promise<ContactsUploadReportDto> {
    const rows = Array.isArray(batch?.rows) ? batch.rows : [];
    if (rows.length > CAMPAIGN_MAX_CONTACTS_PER_UPLOAD) {
      throw AppError.validation([
        { field: 'rows', message: `a batch holds at most ${CAMPAIGN_MAX_CONTACTS_PER_UPLOAD} rows` },
      ]);
    }
    const candidates = rows.map((r, i) =>
      candidateFromJson(r?.contact, Number.isSafeInteger(r?.row) && r.row > 0 ? r.row : i + 1),
    );
    return this.dataSource.transaction(async (em) => {
      // The campaign row lock serialises uploads (duplicates are judged against a stable set) and completion.
      const campaign = await this.campaigns.lock(
        em,
        partnerId,
        typeof batch?.id === 'string' ? batch.id : '',
      );
      if (campaign.status === 'completed')
        throw new AppError(ErrorCode.INVALID_STATE, CampaignStateMessages.contacts);
      const numbers = candidates.filter((c) => !c.reason).map((c) => c.phoneNumber as string);
      const existing = new Set(
        (
          (await em.query(
            `SELECT phone_number FROM ${tableOf(em, 'contacts')} WHERE campaign_id = $1 AND phone_number = ANY($2)`,
            [campaign.id, numbers],
          )) as { phone_number: string }[]
        ).map((r) => r.phone_number),
      );
      const accepted: (ContactCandidate & { id: string })[] = [];
      const report: ContactRowReportDto[] = candidates.map((c) => {
        let reason = c.reason;
        if (!reason && existing.has(c.phoneNumber as string)) reason = 'duplicate';
        if (reason) return { row: c.row, status: 'rejected', reason };
        existing.add(c.phoneNumber as string);
        accepted.push({ ...c, id: `cct_${randomUUID()}` });
        return { row: c.row, status: 'accepted', reason: null };
      });
      if (accepted.length) {
        await em.query(
          `INSERT INTO ${tableOf(em, 'contacts')} (id, campaign_id, partner_id, phone_number, variables, external_id, next_attempt_at, timezone)
           SELECT c.id, $1, $2, c.phone, c.vars, c.ext, $7, c.zone
           FROM unnest($3::text[], $4::text[], $5::jsonb[], $6::text[], $8::text[]) WITH ORDINALITY AS c(id, phone, vars, ext, zone, n)
           ORDER BY c.n`,
          [
            campaign.id,
            partnerId,
            accepted.map((c) => c.id),
            accepted.map((c) => c.phoneNumber),
            accepted.map((c) => JSON.stringify(c.variables)),
            accepted.map((c) => c.externalId),
            this.clock.now(),
            accepted.map((c) => c.timezone),
          ],
        );
        await em.query(
          `UPDATE ${tableOf(em, 'campaigns')} SET total_contacts = total_contacts + $2, updated_at = now() WHERE id = $1`,
          [campaign.id, accepted.length],
        );
        if (campaign.status === 'running') this.signal.notify(em, campaign.id);
      }
      return contactsUploadReport(report, campaign.total_contacts + accepted.length);
    });
  }

  async list(partnerId: string, campaignId: string, query: ListContactsQueryDto): Promise<ContactListDto> {
    await this.campaigns.find(partnerId, campaignId);
    // Upload order: seq, not created_at, which is the same for every row of one upload.
    const pager = new KeysetPager(query, { idKind: 'integer', id: 'seq', byIdOnly: true });
    const params: unknown[] = [campaignId, partnerId, query.status ?? null, pager.fetch];
    const after = pager.condition((value) => {
      params.push(value);
      return `$${params.length}::bigint`;
    });
    const rows = (await this.dataSource.query(
      `SELECT *, ${pager.select} FROM ${tableOf(this.dataSource, 'contacts')}
       WHERE campaign_id = $1 AND partner_id = $2 AND ($3::text IS NULL OR status = $3) ${after ? `AND ${after}` : ''}
       ORDER BY ${pager.orderBy} LIMIT $4`,
      params,
    )) as (ContactRow & KeysetColumns)[];
    const { rows: page } = pager.page(rows);
    const attempts = (await this.dataSource.query(
      `SELECT contact_id, attempt, call_id, call_status, created_at, ended_at FROM ${tableOf(this.dataSource, 'attempts')}
       WHERE contact_id = ANY($1) AND status <> 'abandoned' ORDER BY contact_id, attempt`,
      [page.map((r) => r.id)],
    )) as AttemptRow[];
    const contacts = page.map((r) =>
      toContactDto(
        r,
        attempts.filter((a) => a.contact_id === r.id),
      ),
    );
    // The page also ends where its contacts (their variables above all) fill one message's budget: a reply
    // must fit in what NATS carries, however large the contacts of the page.
    const size = messageBatches(contacts)[0]?.length ?? 0;
    return { contacts: contacts.slice(0, size), next_cursor: pager.page(rows, rows, size).nextCursor };
  }
}

function toContactDto(row: ContactRow, attempts: AttemptRow[]): CampaignContactDto {
  const open = row.status === 'pending' || row.status === 'retry_wait';
  return {
    contact_id: row.id,
    phone_number: row.phone_number,
    variables: row.variables,
    external_id: row.external_id,
    status: row.status,
    attempts: row.attempts,
    call_ids: attempts.flatMap((a) => (a.call_id ? [a.call_id] : [])),
    attempt_history: attempts.map((a) => ({
      attempt: a.attempt,
      call_id: a.call_id,
      call_status: a.call_status,
      started_at: a.created_at.toISOString(),
      ended_at: a.ended_at ? a.ended_at.toISOString() : null,
    })),
    last_call_status: row.last_call_status,
    skip_reason: row.skip_reason,
    wait_reason: open ? row.wait_reason : null,
    timezone: row.timezone,
    next_attempt_at: open && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
