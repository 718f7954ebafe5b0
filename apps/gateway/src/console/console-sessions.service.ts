import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode, PartnerContext } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { LockoutPolicy, OperatorLockout } from '../auth/operator-lockout.service';
import { newToken, SESSION_PREFIX, tokenHash } from './console-tokens';
import { UserRow } from './console-users.service';
import { decoyHash, verifyPassword } from './passwords';

/** A session ends after this long without a request, and in any case this long after sign-in. */
export const SESSION_IDLE_MS = 12 * 3600 * 1000;
export const SESSION_MAX_MS = 7 * 24 * 3600 * 1000;
/**
 * The most users of one email whose passwords a sign-in checks (those signed in most recently first): each is a
 * scrypt hash. A person in more accounts than this signs in to the others with account_id.
 */
const MAX_ACCOUNTS_PER_SIGN_IN = 10;
/** last_seen_at is written at most this often per session. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Wrong passwords lock out the client address, and separately the email tried from that address, for a growing
 * time. Never the email from everywhere: anyone could then keep its user out by failing on purpose.
 */
const BY_ADDRESS: LockoutPolicy = { scope: 'console_address', afterFailures: 10, lockSeconds: 60 };
const BY_EMAIL_AND_ADDRESS: LockoutPolicy = {
  scope: 'console_email_address',
  afterFailures: 5,
  lockSeconds: 60,
};

export interface ConsoleSession {
  user: UserRow;
  /** The account; `reseller`: it manages client accounts (the console shows its Clients page). */
  partner: PartnerContext & { name: string; reseller: boolean };
  csrfToken: string;
  tokenHash: Buffer;
}

/** Signed-in console sessions: a random cookie whose SHA-256 is stored, with its CSRF token. */
@Injectable()
export class ConsoleSessionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lockout: OperatorLockout,
  ) {}

  private t(table: string): string {
    return tableOf(this.dataSource, table);
  }

  /**
   * Checks the password against the email's users (of the account asked, or of every account) and opens a
   * session when it is one user's. When it is the password of users of several accounts, nothing is opened:
   * the answer names those accounts, to sign in to one. An unknown email costs a hash and answers as a wrong
   * password; accounts whose user has another password are never named.
   */
  async signIn(
    email: string,
    password: string,
    address: string,
    accountId?: string,
  ): Promise<{ token: string; session: ConsoleSession } | { accounts: { id: string; name: string }[] }> {
    const key = email.trim().toLowerCase();
    const emailFromAddress = `${key} ${address}`;
    const wait = Math.max(
      await this.lockout.lockedFor(address, BY_ADDRESS),
      await this.lockout.lockedFor(emailFromAddress, BY_EMAIL_AND_ADDRESS),
    );
    if (wait > 0)
      throw new AppError(ErrorCode.RATE_LIMITED, `Too many failed sign-ins. Retry after ${wait} seconds.`, {
        retryAt: new Date(Date.now() + wait * 1000).toISOString(),
      });
    const users = (await this.dataSource.query(
      `SELECT u.*, p.name AS account_name FROM ${this.t('partner_users')} u
         JOIN ${this.t('partners')} p ON p.id = u.partner_id
        WHERE lower(u.email) = $1 AND u.password_hash IS NOT NULL AND ($2::uuid IS NULL OR u.partner_id = $2)
        ORDER BY u.last_sign_in_at DESC NULLS LAST, u.created_at, u.id
        LIMIT $3`,
      [key, accountId ?? null, MAX_ACCOUNTS_PER_SIGN_IN],
    )) as (UserRow & { account_name: string })[];
    let matched: typeof users = [];
    if (users.length) {
      // The hashes are checked side by side (libuv's threads), so several take about the time of one.
      const valid = await Promise.all(users.map((u) => verifyPassword(password, u.password_hash!)));
      matched = users.filter((_, i) => valid[i]);
    } else {
      await verifyPassword(password, await decoyHash());
    }
    if (!matched.length) {
      await this.lockout.failed(address, BY_ADDRESS);
      await this.lockout.failed(emailFromAddress, BY_EMAIL_AND_ADDRESS);
      throw new AppError(ErrorCode.UNAUTHORIZED, 'Wrong email or password');
    }
    await this.lockout.succeeded(emailFromAddress, BY_EMAIL_AND_ADDRESS);
    if (matched.length > 1)
      return {
        accounts: matched
          .map((u) => ({ id: u.partner_id, name: u.account_name }))
          .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
      };
    return this.open(matched[0].id);
  }

  /** Opens a session for a user (after sign-in, or after they set their password from a link). */
  async open(userId: string): Promise<{ token: string; session: ConsoleSession }> {
    const token = newToken(SESSION_PREFIX);
    await this.dataSource.query(
      `INSERT INTO ${this.t('console_sessions')} (token_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)`,
      [
        tokenHash(token),
        userId,
        randomBytes(32).toString('base64url'),
        new Date(Date.now() + SESSION_MAX_MS),
      ],
    );
    await this.dataSource.query(
      `UPDATE ${this.t('partner_users')} SET last_sign_in_at = now() WHERE id = $1`,
      [userId],
    );
    const session = await this.load(token);
    if (!session) throw new Error('a session just opened could not be read');
    return { token, session };
  }

  /** The live session of a cookie's token, or null (unknown, revoked, idle too long, expired). */
  async load(token: string): Promise<ConsoleSession | null> {
    const hash = tokenHash(token);
    const [row] = await this.dataSource.query(
      `SELECT s.csrf_token, s.last_seen_at, u.*,
              p.name AS p_name, p.status AS p_status, p.voice_tier AS p_voice_tier,
              p.concurrency_limit AS p_concurrency_limit, p.balance_paise AS p_balance_paise, p.version AS p_version,
              p.price_per_minute_paise AS p_price_per_minute_paise, p.is_reseller AS p_is_reseller
         FROM ${this.t('console_sessions')} s
         JOIN ${this.t('partner_users')} u ON u.id = s.user_id
         JOIN ${this.t('partners')} p ON p.id = u.partner_id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()
          AND s.last_seen_at > now() - make_interval(secs => $2)`,
      [hash, SESSION_IDLE_MS / 1000],
    );
    if (!row) return null;
    if (Date.now() - new Date(row.last_seen_at).getTime() > TOUCH_EVERY_MS) {
      void this.dataSource
        .query(`UPDATE ${this.t('console_sessions')} SET last_seen_at = now() WHERE token_hash = $1`, [hash])
        .catch(() => undefined);
    }
    return {
      user: row,
      partner: {
        id: row.partner_id,
        name: row.p_name,
        status: row.p_status,
        voiceTier: row.p_voice_tier,
        concurrencyLimit: row.p_concurrency_limit,
        balancePaise: Number(row.p_balance_paise),
        pricePerMinutePaise: row.p_price_per_minute_paise ?? null,
        version: row.p_version,
        reseller: row.p_is_reseller === true,
      },
      csrfToken: row.csrf_token,
      tokenHash: hash,
    };
  }

  async revokeHash(hash: Buffer): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.t('console_sessions')} SET revoked_at = now() WHERE token_hash = $1`,
      [hash],
    );
  }

  /** Drops sessions that can no longer be used. */
  async prune(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${this.t('console_sessions')}
        WHERE expires_at < now() OR revoked_at < now() - interval '1 day'
           OR last_seen_at < now() - make_interval(secs => $1)`,
      [SESSION_IDLE_MS / 1000],
    );
  }
}
