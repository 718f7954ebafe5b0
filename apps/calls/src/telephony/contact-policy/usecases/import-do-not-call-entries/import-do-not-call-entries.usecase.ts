import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  assertDoNotCallImportRows,
  DoNotCallCandidate,
  DoNotCallImportBatch,
  doNotCallImportReport,
  DoNotCallImportReportDto,
  DoNotCallImportRowDto,
  judgeDoNotCallRow,
} from '@vap/api';
import { DoNotCallId } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { lockDoNotCallList } from '../../do-not-call-lock';

/** Rows per INSERT of an import. */
const IMPORT_CHUNK = 1000;

/**
 * calls.do_not_call.import, one batch of a bulk import: every valid row is added unless its number or prefix
 * is listed already, by now or earlier in the batch (then it is left as it was); invalid rows are reported and
 * skipped. One transaction per batch: the batches of an import come one after the other, so a row listed by an
 * earlier batch is already_listed here, as it would be in one transaction.
 */
@Injectable()
export class ImportDoNotCallEntries {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, batch: DoNotCallImportBatch): Promise<DoNotCallImportReportDto> {
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
}
