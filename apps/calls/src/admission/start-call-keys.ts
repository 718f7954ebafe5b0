import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { StartCallCommand, StartCallDto, StartCallOrigin } from '@vap/api';
import { AppError } from '@vap/messages';
import { tableOf } from '@vap/persistence';

/** How long a key names its call; after that the key may start a new one. */
export const RETENTION_HOURS = 24;

export interface StartCallKey {
  key: string;
  /** What "the same request" means: the body, whatever the order of its keys. */
  hash: string;
}

/** JSON with object keys sorted at every level and absent values dropped, so equal bodies hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Splits the command into the call request and its Idempotency-Key (null when none was sent). */
export function splitStartCommand(command: StartCallCommand): {
  input: StartCallDto;
  key: StartCallKey | null;
  origin: StartCallOrigin | null;
} {
  const { idempotency_key: key, origin, ...input } = command;
  if (!key) return { input, key: null, origin: origin ?? null };
  return {
    input,
    key: { key, hash: createHash('sha256').update(canonicalJson(input)).digest('hex') },
    origin: origin ?? null,
  };
}

/**
 * The call a live key names, or null when the key is new (or expired). The same key with another body is
 * 409 CONFLICT: it names a different request.
 */
export async function callOfKey(
  em: EntityManager,
  partnerId: string,
  key: StartCallKey,
): Promise<string | null> {
  const [row] = (await em.query(
    `SELECT request_hash, call_id FROM ${tableOf(em, 'start_call_keys')}
      WHERE partner_id = $1 AND key = $2 AND created_at > now() - make_interval(hours => $3)`,
    [partnerId, key.key, RETENTION_HOURS],
  )) as { request_hash: string; call_id: string }[];
  if (!row) return null;
  if (row.request_hash !== key.hash) {
    throw AppError.conflict('This Idempotency-Key was already used with a different request');
  }
  return row.call_id;
}

/**
 * Binds the key to the call just admitted, in the admission's transaction (under the partner's lock, so
 * two starts with one key cannot both get here). An expired binding is replaced.
 */
export async function bindKey(
  em: EntityManager,
  partnerId: string,
  key: StartCallKey,
  callId: string,
): Promise<void> {
  const bound = (await em.query(
    `INSERT INTO ${tableOf(em, 'start_call_keys')} AS k (partner_id, key, request_hash, call_id)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (partner_id, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, call_id = EXCLUDED.call_id, created_at = now()
      WHERE k.created_at <= now() - make_interval(hours => $5)
     RETURNING 1`,
    [partnerId, key.key, key.hash, callId, RETENTION_HOURS],
  )) as unknown[];
  if (bound.length === 0) {
    throw AppError.conflict('A request with this Idempotency-Key is still in progress; retry shortly');
  }
}
