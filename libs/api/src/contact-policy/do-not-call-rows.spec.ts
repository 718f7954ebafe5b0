import { doNotCallPrefixesOf } from './do-not-call.dto';
import {
  assertDoNotCallImportRows,
  doNotCallEntryOf,
  doNotCallRowsFromCsv,
  judgeDoNotCallRow,
} from './do-not-call-rows';

/** A CSV import's rows, judged as the gateway judges them. */
const candidatesFromCsv = (csv: string) =>
  doNotCallRowsFromCsv(csv).map((row, i) => judgeDoNotCallRow(row, i + 1));

describe('do-not-call import rows', () => {
  it.each([
    [
      { number: '+919876543210', reason: 'opt_out' },
      { kind: 'number', value: '+919876543210', source: 'import' },
    ],
    [
      { prefix: '+1900', reason: 'legal', source: 'ftc', note: 'premium' },
      { kind: 'prefix', source: 'ftc', note: 'premium' },
    ],
    [{ number: '+15550001234', prefix: '', reason: 'manual' }, { kind: 'number' }],
  ])('accepts %j', (row, expected) => {
    expect(judgeDoNotCallRow(row, 1)).toMatchObject({ row: 1, error: null, ...expected });
  });

  it.each([
    [{ reason: 'opt_out' }, 'missing_number'],
    [null, 'missing_number'],
    [['+919876543210'], 'missing_number'],
    [{ number: '+919876543210', prefix: '+91', reason: 'opt_out' }, 'number_and_prefix'],
    [{ number: '919876543210', reason: 'opt_out' }, 'invalid_number'],
    [{ number: 919876543210, reason: 'opt_out' }, 'invalid_number'],
    [{ prefix: '+0', reason: 'opt_out' }, 'invalid_prefix'],
    [{ prefix: '+123456789012345', reason: 'opt_out' }, 'invalid_prefix'],
    [{ number: '+919876543210', reason: 'OPT_OUT' }, 'invalid_reason'],
    [{ number: '+919876543210', reason: 'opt_out', source: 7 }, 'invalid_source'],
    [{ number: '+919876543210', reason: 'opt_out', note: 'n'.repeat(501) }, 'invalid_note'],
  ])('rejects %j as %s', (row, error) => {
    expect(judgeDoNotCallRow(row, 3)).toEqual({ row: 3, error });
  });

  it('reads a CSV by its header (any case, any order, extra columns ignored), trimming cells', () => {
    const rows = candidatesFromCsv(
      'created_at, Reason ,PREFIX,number\r\n2026-01-01,opt_out,, +919876543210 \r\nx,legal,+44,\r\nx,legal,,\r\n',
    );
    expect(rows).toEqual([
      {
        row: 1,
        error: null,
        kind: 'number',
        value: '+919876543210',
        reason: 'opt_out',
        source: 'import',
        note: null,
      },
      { row: 2, error: null, kind: 'prefix', value: '+44', reason: 'legal', source: 'import', note: null },
      { row: 3, error: 'missing_number' },
    ]);
  });

  it('refuses a whole import without the needed columns, without rows or with too many', () => {
    for (const csv of ['number\r\n+919876543210\r\n', 'phone,reason\r\n+919876543210,opt_out\r\n', '']) {
      expect(() => candidatesFromCsv(csv)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    }
    expect(() => candidatesFromCsv('number,reason\r\n')).toThrow(/no rows/);
    expect(() => assertDoNotCallImportRows(0, 'entries')).toThrow(/no rows/);
    expect(() => assertDoNotCallImportRows(10_001, 'entries')).toThrow(/at most 10000/);
    expect(() => assertDoNotCallImportRows(10_000, 'entries')).not.toThrow();
  });

  it('reads quoted cells across line breaks, and sources and notes an export guarded as formulas', () => {
    const rows = doNotCallRowsFromCsv(
      `number,reason,source,note\r\n+919876543210,opt_out,"'=cmd|' /C calc'!A0","line one,\r\nline ""two"""\r\n`,
    );
    expect(rows).toEqual([
      {
        number: '+919876543210',
        reason: 'opt_out',
        source: "=cmd|' /C calc'!A0",
        note: 'line one,\r\nline "two"',
      },
    ]);
  });

  it('sends a valid row as the JSON row it was judged by', () => {
    const judged = judgeDoNotCallRow({ prefix: '+1900', reason: 'legal', extra: 'x'.repeat(1000) }, 4);
    if (judged.error !== null) throw new Error('judged invalid');
    expect(doNotCallEntryOf(judged)).toEqual({ prefix: '+1900', reason: 'legal', source: 'import' });
    expect(judgeDoNotCallRow(doNotCallEntryOf(judged), 4)).toEqual(judged);
  });
});

describe('doNotCallPrefixesOf', () => {
  it('lists every prefix a number could be covered by, shortest first, ending with the number', () => {
    expect(doNotCallPrefixesOf('+4420')).toEqual(['+4', '+44', '+442', '+4420']);
    expect(doNotCallPrefixesOf('+919876543210')).toHaveLength(12);
  });
});
