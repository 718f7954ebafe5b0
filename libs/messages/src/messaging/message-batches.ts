/**
 * The most data one command message of a bulk upload carries (JSON bytes of its rows): well under NATS' default
 * max_payload of 1 MB, whatever the size of the upload, with room for the request's envelope and caller.
 */
export const MESSAGE_BATCH_BYTES = 256 * 1024;

/**
 * Splits rows into batches of at most `maxBytes` of JSON (at least one row each), in order: what one NATS
 * message may carry, whatever the size of the upload. A row larger than `maxBytes` gets a batch of its own,
 * so callers bound their rows' fields below it.
 */
export function messageBatches<T>(rows: readonly T[], maxBytes = MESSAGE_BATCH_BYTES): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
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
