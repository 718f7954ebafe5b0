/**
 * The UUID shape every id check uses: 8-4-4-4-12 hex digits, any version or variant, so anything Postgres
 * stores in a uuid column passes. Kept as source text so prefixed ids and cursors build on the same rule.
 */
export const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

// Case-insensitive: Postgres reads upper-case hex as the same uuid, so such an id still names its row.
const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, 'i');

/** True for a string shaped like a UUID; a guard before any lookup in a uuid column. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
