import { DataSource } from 'typeorm';

/** Rows deleted per statement, so that a large backlog never holds many locks or a long transaction. */
const BATCH = 5000;

/**
 * Deletes the rows of `table` (a name from tableOf) that match the SQL condition `where`, batch by batch, and
 * returns how many went. Replicas may run it at once: batches take rows with SKIP LOCKED and a delete is
 * idempotent.
 */
export async function deleteInBatches(
  dataSource: DataSource,
  table: string,
  where: string,
  params: unknown[],
): Promise<number> {
  let total = 0;
  for (;;) {
    const [, deleted] = (await dataSource.query(
      `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM ${table} WHERE ${where} LIMIT ${BATCH} FOR UPDATE SKIP LOCKED))`,
      params,
    )) as [unknown, number];
    total += deleted;
    if (deleted < BATCH) return total;
  }
}
