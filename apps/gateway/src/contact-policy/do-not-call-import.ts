import { Injectable } from '@nestjs/common';
import {
  DO_NOT_CALL_MESSAGE_BYTES,
  DoNotCallImportBatch,
  DoNotCallImportReportDto,
  DoNotCallImportRowDto,
  doNotCallEntryOf,
  doNotCallImportReport,
  judgeDoNotCallRow,
  PartnerContext,
  Subjects,
} from '@vap/contracts';
import { RpcClient } from '@vap/messaging';

type BatchRow = DoNotCallImportBatch['rows'][number];

/**
 * Splits rows into batches of at most `maxBytes` of JSON (at least one row each), in order: what one NATS
 * message may carry, whatever the size of the upload.
 */
export function importBatches(rows: BatchRow[], maxBytes = DO_NOT_CALL_MESSAGE_BYTES): BatchRow[][] {
  const batches: BatchRow[][] = [];
  let batch: BatchRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (batch.length > 0 && bytes + size > maxBytes) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(row);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * A do-not-call import as the gateway runs it: every row is judged here, so only valid rows (whose fields are
 * bounded) travel; they go to the calls service in batches (importBatches), one after the other, and the
 * batches' reports are put back together with the rejected rows, in row order. A batch is added in one
 * transaction: an import that fails part-way keeps its earlier batches, and sent again reports their rows
 * already_listed.
 */
@Injectable()
export class DoNotCallImporter {
  constructor(private readonly rpc: RpcClient) {}

  async import(partner: PartnerContext, rows: unknown[]): Promise<DoNotCallImportReportDto> {
    const report: DoNotCallImportRowDto[] = [];
    const valid: BatchRow[] = [];
    rows.forEach((input, i) => {
      const candidate = judgeDoNotCallRow(input, i + 1);
      if (candidate.error === null) valid.push({ row: candidate.row, entry: doNotCallEntryOf(candidate) });
      else report.push({ row: candidate.row, status: 'rejected', error: candidate.error });
    });
    for (const batch of importBatches(valid)) {
      const reply = await this.rpc.request(Subjects.calls.doNotCallImport, partner, { rows: batch });
      report.push(...reply.rows);
    }
    return doNotCallImportReport(report.sort((a, b) => a.row - b.row));
  }
}
