import { MESSAGE_BATCH_BYTES, messageBatches } from './message-batches';

const dncRow = (n: number, note: string) => ({
  row: n,
  entry: { number: `+9198${String(n).padStart(8, '0')}`, reason: 'opt_out' as const, source: 'crm', note },
});

const contactRow = (n: number) => ({
  row: n,
  contact: {
    phone_number: `+9198${String(n).padStart(8, '0')}`,
    variables: { customer_name: `Ásha ${n}`, notes: `€${'v'.repeat(170)}` },
    external_id: `crm-${n}`,
  },
});

describe('messageBatches', () => {
  it('keeps every row, in order, in batches whose JSON fits the message budget', () => {
    // An upload of 10,000 rows with 480-character notes (multi-byte characters among them): about 5 MB of JSON.
    const rows = Array.from({ length: 10_000 }, (_, i) => dncRow(i + 1, `é${'n'.repeat(478)}€`));
    const batches = messageBatches(rows);
    expect(batches.length).toBeGreaterThan(10);
    expect(batches.flat()).toEqual(rows);
    for (const batch of batches) {
      expect(Buffer.byteLength(JSON.stringify({ rows: batch }))).toBeLessThanOrEqual(MESSAGE_BATCH_BYTES);
    }
  });

  it('splits a full contacts upload (10,000 rows, about 2.3 MB of JSON) into messages NATS carries', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => contactRow(i + 1));
    const batches = messageBatches(rows);
    expect(Buffer.byteLength(JSON.stringify(rows))).toBeGreaterThan(2 * 1024 * 1024);
    expect(batches.length).toBeGreaterThanOrEqual(9);
    expect(batches.flat()).toEqual(rows);
    for (const batch of batches) {
      const message = { id: 'cmp_6d0b3f0c-6a0e-4a8e-9a55-0d7f4c1f2b11', rows: batch };
      expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThanOrEqual(MESSAGE_BATCH_BYTES + 100);
    }
  });

  it('puts a row larger than the budget in a batch of its own, and makes no empty batch', () => {
    const rows = [dncRow(1, 'a'), dncRow(2, 'b'.repeat(300)), dncRow(3, 'c')];
    expect(messageBatches(rows, 200)).toEqual([[rows[0]], [rows[1]], [rows[2]]]);
    expect(messageBatches([], 200)).toEqual([]);
    expect(messageBatches(rows)).toEqual([rows]);
  });
});
