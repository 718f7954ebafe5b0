import { fromSpreadsheetText, parseCsv } from '../csv';
import { AppError } from '@vap/messages';
import { E164_PATTERN } from '../validation';
import {
  DO_NOT_CALL_IMPORT_MAX_ROWS,
  DO_NOT_CALL_NOTE_MAX,
  DO_NOT_CALL_PREFIX_PATTERN,
  DO_NOT_CALL_REASONS,
  DO_NOT_CALL_SOURCE_MAX,
  DoNotCallImportEntryDto,
  DoNotCallImportReportDto,
  DoNotCallImportRowDto,
  DoNotCallKind,
  DoNotCallReason,
  DoNotCallRowError,
} from './do-not-call.dto';

/** One row of an import, judged on its own: a valid entry to add, or the reason it is rejected. */
export type DoNotCallCandidate =
  | {
      row: number;
      error: null;
      kind: DoNotCallKind;
      value: string;
      reason: DoNotCallReason;
      source: string;
      note: string | null;
    }
  | { row: number; error: DoNotCallRowError };

const IMPORT_SOURCE = 'import';

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** A JSON row (or a CSV row read into the same shape), judged: row is its 1-based number in the import. */
export function judgeDoNotCallRow(input: unknown, row: number): DoNotCallCandidate {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { row, error: 'missing_number' };
  }
  const fields = input as Record<string, unknown>;
  const hasNumber = present(fields.number);
  const hasPrefix = present(fields.prefix);
  if (!hasNumber && !hasPrefix) return { row, error: 'missing_number' };
  if (hasNumber && hasPrefix) return { row, error: 'number_and_prefix' };
  const kind: DoNotCallKind = hasNumber ? 'number' : 'prefix';
  const value = hasNumber ? fields.number : fields.prefix;
  if (kind === 'number' && (typeof value !== 'string' || !E164_PATTERN.test(value))) {
    return { row, error: 'invalid_number' };
  }
  if (kind === 'prefix' && (typeof value !== 'string' || !DO_NOT_CALL_PREFIX_PATTERN.test(value))) {
    return { row, error: 'invalid_prefix' };
  }
  if (!(DO_NOT_CALL_REASONS as readonly unknown[]).includes(fields.reason)) {
    return { row, error: 'invalid_reason' };
  }
  let source = IMPORT_SOURCE;
  if (present(fields.source)) {
    if (typeof fields.source !== 'string' || fields.source.length > DO_NOT_CALL_SOURCE_MAX) {
      return { row, error: 'invalid_source' };
    }
    source = fields.source;
  }
  let note: string | null = null;
  if (present(fields.note)) {
    if (typeof fields.note !== 'string' || fields.note.length > DO_NOT_CALL_NOTE_MAX) {
      return { row, error: 'invalid_note' };
    }
    note = fields.note;
  }
  return {
    row,
    error: null,
    kind,
    value: value as string,
    reason: fields.reason as DoNotCallReason,
    source,
    note,
  };
}

const CSV_COLUMNS = ['number', 'prefix', 'reason', 'source', 'note'] as const;

/**
 * The rows of a CSV import as JSON rows: a header row names the columns (number and/or prefix, reason; source
 * and note optional; any other column, such as an export's created_at, is ignored), empty cells are left out.
 * A header with neither number nor prefix, or without reason, or a file without rows or with too many,
 * refuses the whole import.
 */
export function doNotCallRowsFromCsv(text: string): Record<string, string>[] {
  const [header, ...records] = parseCsv(text);
  const columns = (header ?? []).map((c) => c.trim().toLowerCase());
  const at = Object.fromEntries(CSV_COLUMNS.map((name) => [name, columns.indexOf(name)])) as Record<
    (typeof CSV_COLUMNS)[number],
    number
  >;
  if ((at.number < 0 && at.prefix < 0) || at.reason < 0) {
    throw AppError.validation([
      {
        field: 'csv',
        message: 'the first CSV row must be a header with a number (or prefix) column and a reason column',
      },
    ]);
  }
  assertDoNotCallImportRows(records.length, 'csv');
  return records.map((cells) => {
    const row: Record<string, string> = {};
    for (const name of CSV_COLUMNS) {
      const cell = at[name] >= 0 ? cells[at[name]]?.trim() : undefined;
      // An export guards sources and notes that look like formulas (toSpreadsheetText): they import back as
      // written.
      if (cell) row[name] = name === 'note' || name === 'source' ? fromSpreadsheetText(cell) : cell;
    }
    return row;
  });
}

/** An import holds 1 to DO_NOT_CALL_IMPORT_MAX_ROWS rows; else the whole import is refused. */
export function assertDoNotCallImportRows(count: number, field: string): void {
  if (count === 0) throw AppError.validation([{ field, message: 'the import holds no rows' }]);
  if (count > DO_NOT_CALL_IMPORT_MAX_ROWS) {
    throw AppError.validation([
      { field, message: `an import holds at most ${DO_NOT_CALL_IMPORT_MAX_ROWS} rows` },
    ]);
  }
}

/** A valid row as a JSON row again (the fields it was judged by): what the gateway sends the calls service. */
export function doNotCallEntryOf(
  candidate: Extract<DoNotCallCandidate, { error: null }>,
): DoNotCallImportEntryDto {
  return {
    [candidate.kind]: candidate.value,
    reason: candidate.reason,
    source: candidate.source,
    ...(candidate.note === null ? {} : { note: candidate.note }),
  };
}

/** The report of rows judged one by one, with its counts. */
export function doNotCallImportReport(rows: DoNotCallImportRowDto[]): DoNotCallImportReportDto {
  return {
    added: rows.filter((r) => r.status === 'added').length,
    already_listed: rows.filter((r) => r.status === 'already_listed').length,
    rejected: rows.filter((r) => r.status === 'rejected').length,
    rows,
  };
}
