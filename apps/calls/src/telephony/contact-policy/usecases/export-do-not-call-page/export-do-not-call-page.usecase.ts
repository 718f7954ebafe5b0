import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  DO_NOT_CALL_MESSAGE_BYTES,
  DoNotCallExportPage,
  DoNotCallExportPageRequest,
  toSpreadsheetText,
} from '@vap/api';
import { decodeCursor, encodeCursor } from '@vap/messages';
import { tableOf } from '@vap/persistence';

/** Largest export page the gateway may ask for (rows of one NATS reply). */
const EXPORT_PAGE_MAX = 2000;

/** calls.do_not_call.export_page: one page of the export, oldest first, as CSV cells (DO_NOT_CALL_CSV_COLUMNS). */
@Injectable()
export class ExportDoNotCallPage {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, request: DoNotCallExportPageRequest): Promise<DoNotCallExportPage> {
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
}
