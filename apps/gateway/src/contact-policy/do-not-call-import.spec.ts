import { DO_NOT_CALL_MESSAGE_BYTES } from '@vap/contracts';
import { importBatches } from './do-not-call-import';

const row = (n: number, note: string) => ({
  row: n,
  entry: { number: `+9198${String(n).padStart(8, '0')}`, reason: 'opt_out' as const, source: 'crm', note },
});

describe('importBatches', () => {
  it('keeps every row, in order, in batches whose JSON fits the message budget', () => {
    // An upload of 10,000 rows with 480-character notes (multi-byte characters among them): about 5 MB of JSON.
    const rows = Array.from({ length: 10_000 }, (_, i) => row(i + 1, `é${'n'.repeat(478)}€`));
    const batches = importBatches(rows);
    expect(batches.length).toBeGreaterThan(10);
    expect(batches.flat()).toEqual(rows);
    for (const batch of batches) {
      expect(Buffer.byteLength(JSON.stringify({ rows: batch }))).toBeLessThanOrEqual(
        DO_NOT_CALL_MESSAGE_BYTES,
      );
    }
  });

  it('puts a row larger than the budget in a batch of its own, and makes no empty batch', () => {
    const rows = [row(1, 'a'), row(2, 'b'.repeat(300)), row(3, 'c')];
    expect(importBatches(rows, 200)).toEqual([[rows[0]], [rows[1]], [rows[2]]]);
    expect(importBatches([], 200)).toEqual([]);
    expect(importBatches(rows)).toEqual([rows]);
  });
});
