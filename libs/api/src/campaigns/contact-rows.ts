import { parseCsv } from '../csv';
import { AppError } from '@vap/messages';
import { isTimeZone } from '../contact-policy/calling-window.dto';
import { E164_PATTERN } from '../validation';
import { CAMPAIGN_MAX_CONTACTS_PER_UPLOAD, CONTACT_VARIABLES_MAX_BYTES } from './campaign-limits';
import {
  ContactInputDto,
  ContactRejectReason,
  ContactRowReportDto,
  ContactsUploadReportDto,
} from './contacts.dto';

/** One upload row after parsing: either a contact to insert or the reason it is refused. */
export interface ContactCandidate {
  row: number;
  phoneNumber: string | null;
  variables: Record<string, unknown>;
  externalId: string | null;
  timezone: string | null;
  reason: ContactRejectReason | null;
}

const EXTERNAL_ID_MAX = 200;
const CSV_PHONE = 'phone_number';
const CSV_EXTERNAL_ID = 'external_id';
const CSV_TIMEZONE = 'timezone';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Judges one JSON row (row is its 1-based number in the upload): a bad row is reported, never a reason to refuse the others. */
export function candidateFromJson(raw: unknown, row: number): ContactCandidate {
  const input = isPlainObject(raw) ? raw : {};
  const phone = typeof input.phone_number === 'string' ? input.phone_number.trim() : null;
  const candidate: ContactCandidate = {
    row,
    phoneNumber: phone,
    variables: {},
    externalId: null,
    timezone: null,
    reason: null,
  };
  if (!phone || !E164_PATTERN.test(phone)) return { ...candidate, reason: 'invalid_number' };
  if (input.variables !== undefined && input.variables !== null) {
    // Bounded so that a contact always fits in one message of an upload's batch and of its calls' start.
    if (
      !isPlainObject(input.variables) ||
      Buffer.byteLength(JSON.stringify(input.variables)) > CONTACT_VARIABLES_MAX_BYTES
    )
      return { ...candidate, reason: 'invalid_variables' };
    candidate.variables = input.variables;
  }
  if (input.external_id !== undefined && input.external_id !== null) {
    if (typeof input.external_id !== 'string' || input.external_id.length > EXTERNAL_ID_MAX) {
      return { ...candidate, reason: 'invalid_external_id' };
    }
    candidate.externalId = input.external_id;
  }
  if (input.timezone !== undefined && input.timezone !== null && input.timezone !== '') {
    if (!isTimeZone(input.timezone)) return { ...candidate, reason: 'invalid_timezone' };
    candidate.timezone = input.timezone;
  }
  return candidate;
}

/**
 * The rows of a CSV upload as JSON rows: a header row names the columns, `phone_number` required,
 * `external_id` and `timezone` optional, every other column a pre-call variable of that name. A header without
 * phone_number, or a file without rows or with too many, refuses the whole upload.
 */
export function contactRowsFromCsv(text: string): ContactInputDto[] {
  const [header, ...records] = parseCsv(text);
  const columns = (header ?? []).map((c) => c.trim());
  const phoneAt = columns.indexOf(CSV_PHONE);
  if (phoneAt < 0) {
    throw AppError.validation([
      { field: 'csv', message: `the first CSV row must be a header with a ${CSV_PHONE} column` },
    ]);
  }
  if (records.length === 0)
    throw AppError.validation([{ field: 'csv', message: 'the CSV holds no contact rows' }]);
  if (records.length > CAMPAIGN_MAX_CONTACTS_PER_UPLOAD) {
    throw AppError.validation([
      { field: 'csv', message: `a CSV upload holds at most ${CAMPAIGN_MAX_CONTACTS_PER_UPLOAD} rows` },
    ]);
  }
  const externalAt = columns.indexOf(CSV_EXTERNAL_ID);
  const zoneAt = columns.indexOf(CSV_TIMEZONE);
  return records.map((cells) => {
    const variables: Record<string, string> = {};
    columns.forEach((name, at) => {
      if (at !== phoneAt && at !== externalAt && at !== zoneAt && name !== '' && cells[at] !== undefined)
        variables[name] = cells[at];
    });
    const external = externalAt >= 0 && cells[externalAt] ? cells[externalAt] : undefined;
    const timezone = zoneAt >= 0 && cells[zoneAt] ? cells[zoneAt].trim() : undefined;
    return {
      phone_number: cells[phoneAt] ?? '',
      variables,
      ...(external === undefined ? {} : { external_id: external }),
      ...(timezone === undefined ? {} : { timezone }),
    };
  });
}

/** A valid row as a JSON row again (the fields it was judged by): what the gateway sends the campaigns service. */
export function contactInputOf(candidate: ContactCandidate): ContactInputDto {
  return {
    phone_number: candidate.phoneNumber ?? '',
    variables: candidate.variables,
    ...(candidate.externalId === null ? {} : { external_id: candidate.externalId }),
    ...(candidate.timezone === null ? {} : { timezone: candidate.timezone }),
  };
}

/** The report of rows judged one by one, with its counts. */
export function contactsUploadReport(
  rows: ContactRowReportDto[],
  totalContacts: number,
): ContactsUploadReportDto {
  const accepted = rows.filter((r) => r.status === 'accepted').length;
  return { accepted, rejected: rows.length - accepted, total_contacts: totalContacts, rows };
}
