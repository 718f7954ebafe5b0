import { Injectable } from '@nestjs/common';
import {
  doNotCallEntryOf,
  DoNotCallImportBatch,
  doNotCallImportReport,
  DoNotCallImportReportDto,
  DoNotCallImportRowDto,
  judgeDoNotCallRow,
} from '@vap/api';
import { messageBatches, PartnerContext, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';

type BatchRow = DoNotCallImportBatch['rows'][number];

/**
 * A do-not-call import as the gateway runs it: every row is judged here, so only valid rows (whose fields are
 * bounded) travel; they go to the calls service in batches (messageBatches), one after the other, and the
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
    for (const batch of messageBatches(valid)) {
      const reply = await this.rpc.request(Subjects.calls.doNotCallImport, partner, { rows: batch });
      report.push(...reply.rows);
    }
    return doNotCallImportReport(report.sort((a, b) => a.row - b.row));
  }
}
