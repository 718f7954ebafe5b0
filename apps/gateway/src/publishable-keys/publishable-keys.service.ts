import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  CreatedBrowserSessionDto,
  CreatePublishableKeyDto,
  CreateWebSessionDto,
  MAX_ACTIVE_PUBLISHABLE_KEYS,
  PUBLISHABLE_KEY_LIMITS,
  PublishableKeyDto,
  WebSessionDto,
} from '@vap/api';
import { AppError, ErrorCode, PartnerContext, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { Partner } from '../accounts/entities/partner.entity';
import { toPartnerContext } from '../accounts/partner-context';
import { apiKeyMatches } from '../auth/api-key-secrets';
import {
  generatePublishableKey,
  isWellFormedPublishableKey,
  publishableLookupPrefix,
} from './publishable-key-secrets';

interface KeyRow {
  id: string;
  partner_id: string;
  lookup_prefix: string;
  key_hash: string;
  name: string;
  agent_ids: string[];
  allowed_origins: string[];
  sessions_per_minute: number;
  origin_sessions_per_minute: number;
  max_live_sessions: number;
  origin_max_live_sessions: number;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Who made a key: a console user of the account, or the account's API key. */
export type PublishableKeyIssuer = { via: 'api' } | { via: 'console'; userId: string };

/** Browser session statuses after which a session no longer counts as live. */
const ENDED = new Set(['completed', 'expired', 'failed']);
const WINDOW_MS = 60_000;
/** A full key's refusal says to come back after this long: a live session takes seconds at least to end. */
const LIVE_RETRY_SECONDS = 5;

export function toPublishableKeyDto(row: KeyRow): PublishableKeyDto {
  return {
    id: row.id,
    prefix: row.lookup_prefix,
    name: row.name,
    agent_ids: row.agent_ids,
    allowed_origins: row.allowed_origins,
    sessions_per_minute: row.sessions_per_minute,
    origin_sessions_per_minute: row.origin_sessions_per_minute,
    max_live_sessions: row.max_live_sessions,
    origin_max_live_sessions: row.origin_max_live_sessions,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
    revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
  };
}

/** A refusal the caller may count against the client's address (a wrong key, origin or agent). */
export class PublishableKeyRefusal extends AppError {}

/** A refusal over one of the key's limits: 429 RATE_LIMITED, with the seconds to wait. */
export class PublishableKeyLimited extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(ErrorCode.RATE_LIMITED, message, {
      retryAt: new Date(Date.now() + retryAfterSeconds * 1000).toISOString(),
    });
  }
}

/**
 * Publishable keys (pk_live_...): made and revoked by the account, used by any browser on the origins they
 * list to create browser sessions with the agents they name, within their per-minute and live-session limits
 * (per key and per origin). Every session a key made is kept (gateway.publishable_key_sessions) until it is
 * seen ended, which the live limits count; the per-minute limits count those made in the last 60 seconds. The
 * key's row is locked while a session is created, so two creates at once on any replica cannot both pass.
 */
@Injectable()
export class PublishableKeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  async issue(
    partnerId: string,
    body: CreatePublishableKeyDto,
    issuer: PublishableKeyIssuer,
  ): Promise<{ key: string; row: KeyRow }> {
    return this.dataSource.transaction(async (em) => {
      await em
        .getRepository(Partner)
        .findOne({ where: { id: partnerId }, lock: { mode: 'pessimistic_write' } });
      const [{ count }] = (await em.query(
        `SELECT count(*)::int AS count FROM gateway.publishable_keys WHERE partner_id = $1 AND revoked_at IS NULL`,
        [partnerId],
      )) as { count: number }[];
      if (count >= MAX_ACTIVE_PUBLISHABLE_KEYS) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `This account already has ${MAX_ACTIVE_PUBLISHABLE_KEYS} active publishable keys, the most it may hold; revoke one first`,
        );
      }
      const generated = generatePublishableKey();
      const limit = (name: keyof typeof PUBLISHABLE_KEY_LIMITS) =>
        body[name] ?? PUBLISHABLE_KEY_LIMITS[name].default;
      const [row] = (await em.query(
        `INSERT INTO gateway.publishable_keys
           (id, partner_id, lookup_prefix, key_hash, name, agent_ids, allowed_origins, sessions_per_minute,
            origin_sessions_per_minute, max_live_sessions, origin_max_live_sessions, created_via, created_by_user_id)
         VALUES ($1, $2, $3, $4, $5, $6::uuid[], $7::text[], $8, $9, $10, $11, $12, $13)
         RETURNING *`,
        [
          randomUUID(),
          partnerId,
          generated.lookupPrefix,
          generated.hash,
          body.name.trim(),
          [...new Set(body.agent_ids.map((a) => a.toLowerCase()))],
          [...new Set(body.allowed_origins)],
          limit('sessions_per_minute'),
          limit('origin_sessions_per_minute'),
          limit('max_live_sessions'),
          limit('origin_max_live_sessions'),
          issuer.via,
          issuer.via === 'console' ? issuer.userId : null,
        ],
      )) as KeyRow[];
      return { key: generated.key, row };
    });
  }

  async list(partnerId: string): Promise<KeyRow[]> {
    return (await this.dataSource.query(
      `SELECT * FROM gateway.publishable_keys WHERE partner_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`,
      [partnerId],
    )) as KeyRow[];
  }

  /** Revokes the account's key: the next session it asks for is refused (no cache to wait for). */
  async revoke(partnerId: string, id: string): Promise<KeyRow | null> {
    const [rows] = (await this.dataSource.query(
      `UPDATE gateway.publishable_keys SET revoked_at = coalesce(revoked_at, now())
       WHERE id = $1 AND partner_id = $2 RETURNING *`,
      [id, partnerId],
    )) as [KeyRow[], number];
    return rows[0] ?? null;
  }

  /** Whether any active key lists the origin: what a CORS preflight of the web sessions route is told. */
  async originListed(origin: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM gateway.publishable_keys WHERE revoked_at IS NULL AND allowed_origins @> ARRAY[$1]::text[] LIMIT 1`,
      [origin],
    )) as unknown[];
    return rows.length > 0;
  }

  /**
   * The key as presented, checked against the request's origin and agent: 401 for a malformed, unknown or
   * revoked key, 403 for an origin it does not list, an agent it does not name, or an account that may not
   * make sessions. The refusals are PublishableKeyRefusal.
   */
  async authorize(presented: string, origin: string | undefined, agentId: string): Promise<KeyRow> {
    const unauthorized = (message: string) => new PublishableKeyRefusal(ErrorCode.UNAUTHORIZED, message);
    const forbidden = (message: string) => new PublishableKeyRefusal(ErrorCode.FORBIDDEN, message);
    if (!isWellFormedPublishableKey(presented)) {
      throw unauthorized(
        presented.startsWith('rg_live_')
          ? 'This route takes a publishable key (pk_live_...), never a secret API key: keep that on your server'
          : 'Invalid publishable key: expected Authorization: Bearer pk_live_...',
      );
    }
    const [row] = (await this.dataSource.query(
      `SELECT * FROM gateway.publishable_keys WHERE lookup_prefix = $1`,
      [publishableLookupPrefix(presented)],
    )) as KeyRow[];
    if (!row || !apiKeyMatches(presented, row.key_hash)) throw unauthorized('Invalid publishable key');
    if (row.revoked_at) throw unauthorized('This publishable key was revoked');
    if (!origin) {
      throw forbidden('A publishable key works only from a browser page: the request has no Origin header');
    }
    if (!row.allowed_origins.includes(origin)) {
      throw forbidden(`This publishable key may not be used from ${origin}: add the origin to the key`);
    }
    if (!row.agent_ids.includes(agentId.toLowerCase())) {
      throw forbidden('This publishable key does not name that agent');
    }
    return row;
  }

  /**
   * Creates a browser session for the key's account, on the calling origin only, within the key's limits. The
   * account's own checks apply as for a session made with a secret key (the calls service makes them): its
   * balance and status (403 FORBIDDEN) and its concurrency limit (429 LIMIT_REACHED).
   */
  async createSession(key: KeyRow, origin: string, body: CreateWebSessionDto): Promise<WebSessionDto> {
    const partner = await this.dataSource.getRepository(Partner).findOne({ where: { id: key.partner_id } });
    if (!partner) throw new PublishableKeyRefusal(ErrorCode.UNAUTHORIZED, 'Invalid publishable key');
    if (partner.status === 'suspended') throw new AppError(ErrorCode.FORBIDDEN, 'This account is suspended');
    if (partner.status !== 'approved') {
      throw new AppError(ErrorCode.FORBIDDEN, 'This account is not yet approved');
    }
    const context = toPartnerContext(partner);
    const created = await this.dataSource.transaction(async (em) => {
      const locked = (await em.query(
        `SELECT id FROM gateway.publishable_keys WHERE id = $1 AND revoked_at IS NULL FOR UPDATE`,
        [key.id],
      )) as unknown[];
      if (locked.length === 0) {
        throw new PublishableKeyRefusal(ErrorCode.UNAUTHORIZED, 'This publishable key was revoked');
      }
      await this.releaseEnded(em, key.id, context);
      await this.enforceLimits(em, key, origin);
      const session = await this.rpc.request(Subjects.calls.browserSessionCreate, context, {
        agent_id: body.agent_id,
        allowed_origins: [origin],
        ...(body.variables ? { variables: body.variables } : {}),
        metadata: { publishable_key: key.lookup_prefix, origin },
      });
      await em.query(
        `INSERT INTO gateway.publishable_key_sessions (session_id, key_id, origin) VALUES ($1, $2, $3)`,
        [session.id, key.id, origin],
      );
      await em.query(
        `UPDATE gateway.publishable_keys SET last_used_at = now()
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
        [key.id],
      );
      return session;
    });
    return webSession(created);
  }

  /**
   * Marks the key's sessions that have ended since they were last looked at (asking the calls service, which
   * owns them), and forgets those that ended and left the per-minute window. At most the key's live limit is
   * unended at a time, so this asks about that many sessions at most.
   */
  private async releaseEnded(em: EntityManager, keyId: string, partner: PartnerContext): Promise<void> {
    const open = (await em.query(
      `SELECT session_id FROM gateway.publishable_key_sessions WHERE key_id = $1 AND ended_at IS NULL`,
      [keyId],
    )) as { session_id: string }[];
    const ended: string[] = [];
    for (const { session_id } of open) {
      try {
        const found = await this.rpc.request(Subjects.calls.browserSessionGet, partner, { id: session_id });
        if (ENDED.has(found.status)) ended.push(session_id);
      } catch (err) {
        // A session the calls service no longer knows counts no more.
        if (err instanceof AppError && err.code === ErrorCode.NOT_FOUND) ended.push(session_id);
        else throw err;
      }
    }
    if (ended.length) {
      await em.query(
        `UPDATE gateway.publishable_key_sessions SET ended_at = now() WHERE session_id = ANY($1::text[])`,
        [ended],
      );
    }
    await em.query(
      `DELETE FROM gateway.publishable_key_sessions
       WHERE key_id = $1 AND ended_at IS NOT NULL AND created_at < now() - interval '1 minute'`,
      [keyId],
    );
  }

  private async enforceLimits(em: EntityManager, key: KeyRow, origin: string): Promise<void> {
    const [counts] = (await em.query(
      `SELECT
         count(*) FILTER (WHERE ended_at IS NULL)::int AS live,
         count(*) FILTER (WHERE ended_at IS NULL AND origin = $2)::int AS origin_live,
         count(*) FILTER (WHERE created_at > now() - interval '1 minute')::int AS recent,
         count(*) FILTER (WHERE created_at > now() - interval '1 minute' AND origin = $2)::int AS origin_recent,
         min(created_at) FILTER (WHERE created_at > now() - interval '1 minute') AS oldest,
         min(created_at) FILTER (WHERE created_at > now() - interval '1 minute' AND origin = $2) AS origin_oldest,
         now() AS now
       FROM gateway.publishable_key_sessions WHERE key_id = $1`,
      [key.id, origin],
    )) as {
      live: number;
      origin_live: number;
      recent: number;
      origin_recent: number;
      oldest: Date | null;
      origin_oldest: Date | null;
      now: Date;
    }[];
    const retryAfter = (oldest: Date | null) =>
      oldest
        ? Math.max(
            1,
            Math.ceil((new Date(oldest).getTime() + WINDOW_MS - new Date(counts.now).getTime()) / 1000),
          )
        : 1;
    if (counts.recent >= key.sessions_per_minute) {
      throw new PublishableKeyLimited(
        `This publishable key may create ${key.sessions_per_minute} sessions a minute; retry later`,
        retryAfter(counts.oldest),
      );
    }
    if (counts.origin_recent >= key.origin_sessions_per_minute) {
      throw new PublishableKeyLimited(
        `This publishable key may create ${key.origin_sessions_per_minute} sessions a minute from ${origin}; retry later`,
        retryAfter(counts.origin_oldest),
      );
    }
    if (counts.live >= key.max_live_sessions) {
      throw new PublishableKeyLimited(
        `This publishable key already has ${key.max_live_sessions} sessions pending or live, its most; retry when one ends`,
        LIVE_RETRY_SECONDS,
      );
    }
    if (counts.origin_live >= key.origin_max_live_sessions) {
      throw new PublishableKeyLimited(
        `This publishable key already has ${key.origin_max_live_sessions} sessions pending or live from ${origin}, its most; retry when one ends`,
        LIVE_RETRY_SECONDS,
      );
    }
  }
}

/** What the page is given: enough to connect, nothing of the account's session record. */
function webSession(created: CreatedBrowserSessionDto): WebSessionDto {
  return {
    id: created.id,
    agent_id: created.agent_id,
    status: created.status,
    expires_at: created.expires_at,
    connect_url: created.connect_url,
  };
}
