import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ConsoleInvitationDto, ConsoleRole, ConsoleUserDto, InviteConsoleUserDto } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { inTransaction, tableOf } from '@vap/persistence';
import { Partner } from '../accounts/entities/partner.entity';
import { ConsoleOrigin } from './console-origin';
import { INVITATION_PREFIX, newToken, RESET_PREFIX, tokenHash } from './console-tokens';
import { hashPassword } from './passwords';

/** How long a one-time link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
export const RESET_TTL_MS = 24 * 3600 * 1000;
/** Users an account may have (invited included). */
export const MAX_USERS_PER_ACCOUNT = 100;

export interface UserRow {
  id: string;
  partner_id: string;
  email: string;
  name: string;
  role: ConsoleRole;
  password_hash: string | null;
  created_at: Date;
  last_sign_in_at: Date | null;
}

export type LinkKind = 'invitation' | 'password_reset';

/** A user just invited and the token of their link. */
export interface Invited {
  user: UserRow;
  token: string;
  expiresAt: Date;
}

/** The answer to an invitation, from the operator or from the console: the link on PUBLIC_BASE_URL. */
export function toInvitationDto(origin: ConsoleOrigin, invited: Invited): ConsoleInvitationDto {
  return {
    user: toConsoleUserDto(invited.user),
    invitation_url: origin.link(`/console/invitations/${invited.token}`),
    expires_at: invited.expiresAt.toISOString(),
  };
}

function emailTaken(): AppError {
  return new AppError(ErrorCode.CONFLICT, 'This account already has a console user with this email', {
    details: [{ field: 'email', message: "email is already one of this account's console users" }],
  });
}

/** Two invitations of one email to one account at once: the second is told, as if it came after. */
const INVITE_CONFLICTS = { unique: { partner_users_account_email: emailTaken } };

export function toConsoleUserDto(u: UserRow): ConsoleUserDto {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    status: u.password_hash ? 'active' : 'invited',
    created_at: u.created_at.toISOString(),
    last_sign_in_at: u.last_sign_in_at?.toISOString() ?? null,
  };
}

/**
 * The console's users: invited by the operator or by an account's owners and admins through a one-time link
 * (no email server: the link is answered to whoever invited, to pass on), password resets the same way, role
 * changes and removal. An account always keeps an owner.
 */
@Injectable()
export class ConsoleUsersService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private t(table: string, em: EntityManager | DataSource = this.dataSource): string {
    return tableOf(em, table);
  }

  async list(partnerId: string): Promise<UserRow[]> {
    return this.dataSource.query(
      `SELECT * FROM ${this.t('partner_users')} WHERE partner_id = $1 ORDER BY created_at, id`,
      [partnerId],
    );
  }

  async get(partnerId: string, id: string): Promise<UserRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT * FROM ${this.t('partner_users')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    );
    return row ?? null;
  }

  /** Creates the user (no password yet) and its invitation link's token. */
  async invite(partnerId: string, input: InviteConsoleUserDto): Promise<Invited> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const partner = await em.findOne(Partner, {
          where: { id: partnerId },
          lock: { mode: 'pessimistic_write' },
        });
        if (!partner) throw AppError.notFound('Partner');
        const [{ n }] = await em.query(
          `SELECT count(*)::int AS n FROM ${this.t('partner_users', em)} WHERE partner_id = $1`,
          [partnerId],
        );
        if (n >= MAX_USERS_PER_ACCOUNT)
          throw new AppError(
            ErrorCode.LIMIT_REACHED,
            `An account can have at most ${MAX_USERS_PER_ACCOUNT} console users`,
          );
        const email = input.email.trim();
        // Only this account's users: whether another account has a user of this email is never told.
        const [taken] = await em.query(
          `SELECT 1 FROM ${this.t('partner_users', em)} WHERE partner_id = $1 AND lower(email) = lower($2)`,
          [partnerId, email],
        );
        if (taken) throw emailTaken();
        const [user] = await em.query(
          `INSERT INTO ${this.t('partner_users', em)} (id, partner_id, email, name, role)
         VALUES ($1, $2, $3, $4, $5) RETURNING *`,
          [randomUUID(), partnerId, email, input.name.trim(), input.role],
        );
        const { token, expiresAt } = await this.issueLink(em, user.id, 'invitation');
        return { user, token, expiresAt };
      },
      INVITE_CONFLICTS,
    );
  }

  /** A password-reset link for the user (an earlier unused one stops working). */
  async resetLink(partnerId: string, userId: string): Promise<{ token: string; expiresAt: Date }> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const [user] = await em.query(
          `SELECT id FROM ${this.t('partner_users', em)} WHERE id = $1 AND partner_id = $2`,
          [userId, partnerId],
        );
        if (!user) throw AppError.notFound('User');
        return this.issueLink(em, userId, 'password_reset');
      },
      {},
    );
  }

  private async issueLink(
    em: EntityManager,
    userId: string,
    kind: LinkKind,
  ): Promise<{ token: string; expiresAt: Date }> {
    await em.query(`DELETE FROM ${this.t('console_links', em)} WHERE user_id = $1 AND kind = $2`, [
      userId,
      kind,
    ]);
    const token = newToken(kind === 'invitation' ? INVITATION_PREFIX : RESET_PREFIX);
    const expiresAt = new Date(Date.now() + (kind === 'invitation' ? INVITATION_TTL_MS : RESET_TTL_MS));
    await em.query(
      `INSERT INTO ${this.t('console_links', em)} (token_hash, kind, user_id, expires_at) VALUES ($1, $2, $3, $4)`,
      [tokenHash(token), kind, userId, expiresAt],
    );
    return { token, expiresAt };
  }

  /** The user a valid (unused, unexpired) link is for, with its account's name; null otherwise. */
  async linkInfo(
    token: string,
    kind: LinkKind,
  ): Promise<{ user: UserRow; accountName: string; expiresAt: Date } | null> {
    const [row] = await this.dataSource.query(
      `SELECT u.*, p.name AS account_name, l.expires_at AS link_expires_at
         FROM ${this.t('console_links')} l
         JOIN ${this.t('partner_users')} u ON u.id = l.user_id
         JOIN ${this.t('partners')} p ON p.id = u.partner_id
        WHERE l.token_hash = $1 AND l.kind = $2 AND l.used_at IS NULL AND l.expires_at > now()`,
      [tokenHash(token), kind],
    );
    if (!row) return null;
    return { user: row, accountName: row.account_name, expiresAt: row.link_expires_at };
  }

  /**
   * Uses a link once: sets the password and ends the user's other sessions (a reset may follow a stolen
   * password). Null when the link is not valid.
   */
  async usePasswordLink(token: string, kind: LinkKind, password: string): Promise<UserRow | null> {
    // The link is looked up before the password is hashed (32 MiB of scrypt): a made-up token costs one
    // indexed read, not a hash. It is used up below only if still unused, so two uses at once set one password.
    if (!(await this.linkInfo(token, kind))) return null;
    const hash = await hashPassword(password);
    return inTransaction(
      this.dataSource,
      async (em) => {
        // An UPDATE answers [rows, count].
        const [[link]] = await em.query(
          `UPDATE ${this.t('console_links', em)} SET used_at = now()
          WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()
          RETURNING user_id`,
          [tokenHash(token), kind],
        );
        if (!link) return null;
        const [[user]] = await em.query(
          `UPDATE ${this.t('partner_users', em)} SET password_hash = $2, updated_at = now() WHERE id = $1 RETURNING *`,
          [link.user_id, hash],
        );
        await em.query(
          `UPDATE ${this.t('console_sessions', em)} SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`,
          [link.user_id],
        );
        return user as UserRow;
      },
      {},
    );
  }

  /** Changes a user's role. Only owners make, change or unmake owners; the last owner stays one. */
  async changeRole(
    partnerId: string,
    actorRole: ConsoleRole,
    userId: string,
    role: ConsoleRole,
  ): Promise<UserRow> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const user = await this.lockUser(em, partnerId, userId);
        if ((user.role === 'owner' || role === 'owner') && actorRole !== 'owner')
          throw new AppError(ErrorCode.FORBIDDEN, 'Only an owner can make, change or remove an owner');
        if (user.role === 'owner' && role !== 'owner') await this.keepAnOwner(em, partnerId, userId);
        const [[updated]] = await em.query(
          `UPDATE ${this.t('partner_users', em)} SET role = $2, updated_at = now() WHERE id = $1 RETURNING *`,
          [userId, role],
        );
        return updated as UserRow;
      },
      {},
    );
  }

  /** Removes a user: their sessions end with the row. The last owner cannot be removed. */
  async remove(partnerId: string, actorRole: ConsoleRole, userId: string): Promise<UserRow> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const user = await this.lockUser(em, partnerId, userId);
        if (user.role === 'owner') {
          if (actorRole !== 'owner')
            throw new AppError(ErrorCode.FORBIDDEN, 'Only an owner can make, change or remove an owner');
          await this.keepAnOwner(em, partnerId, userId);
        }
        await em.query(`DELETE FROM ${this.t('partner_users', em)} WHERE id = $1`, [userId]);
        return user;
      },
      {},
    );
  }

  private async lockUser(em: EntityManager, partnerId: string, userId: string): Promise<UserRow> {
    // The account's users are locked together, so two owners cannot demote each other at once.
    await em.query(`SELECT id FROM ${this.t('partners', em)} WHERE id = $1 FOR UPDATE`, [partnerId]);
    const [user] = await em.query(
      `SELECT * FROM ${this.t('partner_users', em)} WHERE id = $1 AND partner_id = $2`,
      [userId, partnerId],
    );
    if (!user) throw AppError.notFound('User');
    return user;
  }

  private async keepAnOwner(em: EntityManager, partnerId: string, leaving: string): Promise<void> {
    const [{ n }] = await em.query(
      `SELECT count(*)::int AS n FROM ${this.t('partner_users', em)} WHERE partner_id = $1 AND role = 'owner' AND id <> $2`,
      [partnerId, leaving],
    );
    if (n === 0) throw new AppError(ErrorCode.INVALID_STATE, 'An account must keep at least one owner');
  }
}
