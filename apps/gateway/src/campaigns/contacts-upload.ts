import { Injectable } from '@nestjs/common';
import {
  AddContactsBatch,
  candidateFromJson,
  contactInputOf,
  ContactRowReportDto,
  contactsUploadReport,
  ContactsUploadReportDto,
} from '@vap/api';
import { messageBatches, PartnerContext, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';

type BatchRow = AddContactsBatch['rows'][number];

/** How long one batch may take: a batch of contacts is inserted in one transaction under the campaign's lock. */
const BATCH_TIMEOUT_MS = 30_000;

/**
 * A contacts upload as the gateway runs it: every row is judged here, so only valid rows (whose variables are
 * bounded) travel; they go to the campaigns service in batches (messageBatches), one after the other, and the
 * batches' reports are put back together with the rejected rows, in row order. A batch is added in one
 * transaction: an upload that fails part-way keeps its earlier batches, and sent again reports their rows
 * duplicate.
 */
@Injectable()
export class ContactsUploader {
  constructor(private readonly rpc: RpcClient) {}

  async upload(partner: PartnerContext, id: string, rows: unknown[]): Promise<ContactsUploadReportDto> {
    const report: ContactRowReportDto[] = [];
    const valid: BatchRow[] = [];
    rows.forEach((input, i) => {
      const candidate = candidateFromJson(input, i + 1);
      if (candidate.reason === null) valid.push({ row: candidate.row, contact: contactInputOf(candidate) });
      else report.push({ row: candidate.row, status: 'rejected', reason: candidate.reason });
    });
    // Without a valid row one empty batch still goes: the campaign is checked (404, completed) and counted.
    const batches = valid.length > 0 ? messageBatches(valid) : [[]];
    let totalContacts = 0;
    for (const batch of batches) {
      const reply = await this.rpc.request(
        Subjects.campaigns.contactsAdd,
        partner,
        { id, rows: batch },
        { timeoutMs: BATCH_TIMEOUT_MS },
      );
      report.push(...reply.rows);
      totalContacts = reply.total_contacts;
    }
    return contactsUploadReport(
      report.sort((a, b) => a.row - b.row),
      totalContacts,
    );
  }
}
