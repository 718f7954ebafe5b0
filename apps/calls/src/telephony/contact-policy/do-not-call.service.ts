import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  assertDoNotCallImportRows,
  CreateDoNotCallDto,
  DO_NOT_CALL_MESSAGE_BYTES,
  DoNotCallCandidate,
  DoNotCallDeletedDto,
  DoNotCallEntryDto,
  DoNotCallExportPage,
  DoNotCallExportPageRequest,
  DoNotCallImportBatch,
  doNotCallImportReport,
  DoNotCallImportReportDto,
  DoNotCallImportRowDto,
  DoNotCallListDto,
  DoNotCallLookupDto,
  doNotCallPrefixesOf,
  judgeDoNotCallRow,
  ListDoNotCallQueryDto,
  toSpreadsheetText,
  UpdateDoNotCallDto,
} from '@vap/api';
import { AppError, decodeCursor, DoNotCallId, encodeCursor, ErrorCode } from '@vap/messages';
import { isUniqueViolation, keysetPage, tableOf } from '@vap/persistence';
import { lockDoNotCallList } from './do-not-call-lock';
import { DoNotCallEntry } from './entities/do-not-call-entry.entity';

/** Rows per INSERT of an import. */
const IMPORT_CHUNK = 1000;

/** Largest export page the gateway may ask for (rows of one NATS reply). */
export const EXPORT_PAGE_MAX = 2000;

export function toDoNotCallDto(entry: DoNotCallEntry): DoNotCallEntryDto {
  return {
    id: entry.id,
    kind: entry.kind,
    number: entry.kind === 'number' ? entry.value : null,
    prefix: entry.kind === 'prefix' ? entry.value : null,
    reason: entry.reason,
    source: entry.source,
    note: entry.note,
    created_at: entry.createdAt.toISOString(),
    updated_at: entry.updatedAt.toISOString(),
  };
}

/**
 * The entries covering `number`, longest first: its own entry and every prefix it starts with. One probe of
 * the (partner_id, value, kind) index with the number's at most 15 prefixes.
 */
export async function doNotCallMatches(
  em: EntityManager,
  partnerId: string,
  number: string,
): Promise<DoNotCallEntry[]> {
  return em
    .getRepository(DoNotCallEntry)
    .createQueryBuilder('d')
    .where('d.partner_id = :partnerId', { partnerId })
    .andWhere('d.value = ANY(:prefixes)', { prefixes: doNotCallPrefixesOf(number) })
    .andWhere("(d.kind = 'prefix' OR d.value = :number)", { number })
    .orderBy('length(d.value)', 'DESC')
    .addOrderBy('d.kind', 'ASC')
    .getMany();
}

/** The account's do-not-call list. Every query is scoped by partner; another account's entry is absent. */
@Injectable()
export class DoNotCallService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(partnerId: string, input: CreateDoNotCallDto): Promise<DoNotCallEntryDto> {
    if (input.number !== undefined && input.prefix !== undefined) {
      throw AppError.validation([{ field: 'prefix', message: 'give number or prefix, not both' }]);
    }
    const kind = input.number !== undefined ? 'number' : 'prefix';
    const value = (input.number ?? input.prefix)!;
    const repo = this.dataSource.getRepository(DoNotCallEntry);
    try {
      const entry = repo.create({
        id: DoNotCallId.format(randomUUID()),
        partnerId,
        kind,
        value,
        reason: input.reason,
        source: input.source ?? 'api',
        note: input.note ?? null,
      });
      await this.dataSource.transaction(async (em) => {
        await lockDoNotCallList(em, partnerId);
        await em.insert(DoNotCallEntry, entry);
      });
      return toDoNotCallDto((await repo.findOneBy({ id: entry.id }))!);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const existing = await repo.findOneBy({ partnerId, kind, value });
      throw new AppError(
        ErrorCode.CONFLICT,
        `${kind === 'number' ? 'The number' : 'The prefix'} ${value} is already on the do-not-call list` +
          (existing ? ` (${existing.id})` : ''),
      );
    }
  }

  /**
   * The callee asked during a call not to be called again: the number joins the list (reason opt_out, source
   * call). Already listed, it stays as it was. Answers the entry's id.
   */
  async optOut(partnerId: string, number: string, callId: string): Promise<string> {
    const table = tableOf(this.dataSource.manager, 'do_not_call');
    const [inserted] = await this.dataSource.transaction(async (em) => {
      await lockDoNotCallList(em, partnerId);
      return (await em.query(
        `INSERT INTO ${table} (id, partner_id, kind, value, reason, source, note)
         VALUES ($1, $2, 'number', $3, 'opt_out', 'call', $4)
         ON CONFLICT (partner_id, value, kind) DO NOTHING RETURNING id`,
        [DoNotCallId.format(randomUUID()), partnerId, number, `asked during call ${callId}`],
      )) as { id: string }[];
    });
    if (inserted) return inserted.id;
    const existing = await this.dataSource
      .getRepository(DoNotCallEntry)
      .findOneByOrFail({ partnerId, kind: 'number', value: number });
    return existing.id;
  }

  async list(partnerId: string, query: ListDoNotCallQueryDto): Promise<DoNotCallListDto> {
    const qb = this.dataSource
      .getRepository(DoNotCallEntry)
      .createQueryBuilder('d')
      .where('d.partner_id = :partnerId', { partnerId });
    if (query.reason) qb.andWhere('d.reason = :reason', { reason: query.reason });
    if (query.kind) qb.andWhere('d.kind = :kind', { kind: query.kind });
    const page = await keysetPage(qb, query, { idKind: 'prefixed', direction: 'DESC' });
    return { entries: page.rows.map(toDoNotCallDto), next_cursor: page.nextCursor };
  }

  async get(partnerId: string, id: string): Promise<DoNotCallEntryDto> {
    return toDoNotCallDto(await this.find(this.dataSource.manager, partnerId, id));
  }

  async update(partnerId: string, id: string, changes: UpdateDoNotCallDto): Promise<DoNotCallEntryDto> {
    return this.dataSource.transaction(async (em) => {
      const entry = await this.find(em, partnerId, id, true);
      if (changes.reason !== undefined) entry.reason = changes.reason;
      if (changes.source !== undefined) entry.source = changes.source;
      if (changes.note !== undefined) entry.note = changes.note;
      await em.save(entry);
      return toDoNotCallDto(entry);
    });
  }

  async remove(partnerId: string, id: string): Promise<DoNotCallDeletedDto> {
    const result = await this.dataSource.getRepository(DoNotCallEntry).delete({ id, partnerId });
    if (!result.affected) throw AppError.notFound('Do-not-call entry');
    return { id, deleted: true, message: 'Do-not-call entry deleted; the number may be dialled again' };
  }

  async lookup(partnerId: string, number: string): Promise<DoNotCallLookupDto> {
    const matches = await doNotCallMatches(this.dataSource.manager, partnerId, number);
    return { number, listed: matches.length > 0, matches: matches.map(toDoNotCallDto) };
  }

  /**
   * One batch of a bulk import: every valid row is added unless its number or prefix is listed already, by
   * now or earlier in the batch (then it is left as it was); invalid rows are reported and skipped. One
   * transaction per batch: the batches of an import come one after the other, so a row listed by an earlier
   * batch is already_listed here, as it would be in one transaction.
   */
  async import(partnerId: string, batch: DoNotCallImportBatch): Promise<DoNotCallImportReportDto> {
    const rows = Array.isArray(batch?.rows) ? batch.rows : [];
    assertDoNotCallImportRows(rows.length, 'rows');
    const candidates = rows.map((r, i) =>
      judgeDoNotCallRow(r?.entry, Number.isSafeInteger(r?.row) && r.row > 0 ? r.row : i + 1),
    );
    type Valid = Extract<DoNotCallCandidate, { error: null }>;
    const keyOf = (c: { kind: string; value: string }) => `${c.kind} ${c.value}`;
    const first = new Map<string, Valid>();
    for (const c of candidates) if (c.error === null && !first.has(keyOf(c))) first.set(keyOf(c), c);
    const unique = [...first.values()];
    const added = new Set<string>();
    await this.dataSource.transaction(async (em) => {
      await lockDoNotCallList(em, partnerId);
      const table = tableOf(em, 'do_not_call');
      for (let at = 0; at < unique.length; at += IMPORT_CHUNK) {
        const chunk = unique.slice(at, at + IMPORT_CHUNK);
        // A number or prefix listed before is left as it was (its reason and time stay the first ones).
        const inserted = (await em.query(
          `INSERT INTO ${table} (id, partner_id, kind, value, reason, source, note)
           SELECT id, $1, kind, value, reason, source, note
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
             AS r(id, kind, value, reason, source, note)
           ON CONFLICT (partner_id, value, kind) DO NOTHING
           RETURNING kind, value`,
          [
            partnerId,
            chunk.map(() => DoNotCallId.format(randomUUID())),
            chunk.map((c) => c.kind),
            chunk.map((c) => c.value),
            chunk.map((c) => c.reason),
            chunk.map((c) => c.source),
            chunk.map((c) => c.note),
          ],
        )) as { kind: string; value: string }[];
        for (const row of inserted) added.add(keyOf(row));
      }
    });
    const report: DoNotCallImportRowDto[] = [];
    const reported = new Set<string>();
    for (const c of candidates) {
      if (c.error !== null) {
        report.push({ row: c.row, status: 'rejected', error: c.error });
        continue;
      }
      const key = keyOf(c);
      const fresh = added.has(key) && !reported.has(key);
      reported.add(key);
      report.push({ row: c.row, status: fresh ? 'added' : 'already_listed', error: null });
    }
    return doNotCallImportReport(report);
  }

  /** One page of the export, oldest first, as CSV cells (see DO_NOT_CALL_CSV_COLUMNS). */
  async exportPage(partnerId: string, request: DoNotCallExportPageRequest): Promise<DoNotCallExportPage> {
    const limit = Math.min(EXPORT_PAGE_MAX, Math.max(1, Math.floor(request.limit) || EXPORT_PAGE_MAX));
    const after = decodeCursor(request.after ?? undefined, 'prefixed');
    const params: unknown[] = [partnerId, limit + 1];
    let where = 'partner_id = $1';
    if (after) {
      params.push(after.t, after.id);
      where += ' AND (created_at, id) > ($3::timestamptz, $4)';
    }
    const rows = (await this.dataSource.query(
      `SELECT id, kind, value, reason, source, note, created_at FROM ${tableOf(this.dataSource.manager, 'do_not_call')}
       WHERE ${where} ORDER BY created_at, id LIMIT $2`,
      params,
    )) as {
      id: string;
      kind: string;
      value: string;
      reason: string;
      source: string;
      note: string | null;
      created_at: Date;
    }[];
    // The page ends at `limit` rows or at the message's byte budget, whichever comes first: notes and sources
    // of any length must not grow a reply past what NATS carries.
    const cells: string[][] = [];
    let bytes = 0;
    for (const r of rows.slice(0, limit)) {
      const row = [
        r.kind === 'number' ? r.value : '',
        r.kind === 'prefix' ? r.value : '',
        r.reason,
        // The free text in the file, kept from running as a formula when opened in a spreadsheet.
        toSpreadsheetText(r.source),
        toSpreadsheetText(r.note ?? ''),
        r.created_at.toISOString(),
      ];
      bytes += Buffer.byteLength(JSON.stringify(row)) + 1;
      if (cells.length > 0 && bytes > DO_NOT_CALL_MESSAGE_BYTES) break;
      cells.push(row);
    }
    const last = rows[cells.length - 1];
    return {
      rows: cells,
      after:
        rows.length > cells.length && last
          ? encodeCursor({ t: last.created_at.toISOString(), id: last.id })
          : null,
    };
  }

  private async find(
    em: EntityManager,
    partnerId: string,
    id: string,
    lock = false,
  ): Promise<DoNotCallEntry> {
    const entry = await em.findOne(DoNotCallEntry, {
      where: { id, partnerId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!entry) throw AppError.notFound('Do-not-call entry');
    return entry;
  }
}
