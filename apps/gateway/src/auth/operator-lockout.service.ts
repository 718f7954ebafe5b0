import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { GatewayConfig } from '../config/gateway.config';

/** Whose failures are counted (a scope of their own) and how many lock the key out for how long. */
export interface LockoutPolicy {
  scope: string;
  afterFailures: number;
  lockSeconds: number;
}
/** Failures older than this are forgotten, and so is a lockout past its end. */
const MEMORY_SECONDS = 3600;
const MAX_LOCK_SECONDS = 3600;

/**
 * Slows down operator-token guessing per client address, shared by every gateway replica: after
 * ADMIN_LOCKOUT_AFTER_FAILURES wrong tokens the address is locked out for ADMIN_LOCKOUT_SECONDS, doubled
 * by each further failure (at most an hour). A locked-out address is refused without its token being
 * looked at, so guessing does not go on during the lockout; a right token clears the address's record.
 */
@Injectable()
export class OperatorLockout {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: GatewayConfig,
  ) {}

  private get adminPolicy(): LockoutPolicy {
    return {
      scope: 'admin',
      afterFailures: this.config.ADMIN_LOCKOUT_AFTER_FAILURES,
      lockSeconds: this.config.ADMIN_LOCKOUT_SECONDS,
    };
  }

  /**
   * Seconds the address (or, for another policy, whatever key it counts: a console sign-in's email) stays locked
   * out (0: not locked).
   */
  async lockedFor(address: string, policy: LockoutPolicy = this.adminPolicy): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT ceil(extract(epoch FROM locked_until - clock_timestamp()))::int AS seconds
         FROM ${tableOf(this.dataSource, 'auth_failures')}
        WHERE address = $1 AND scope = $2 AND locked_until > clock_timestamp()`,
      [address, policy.scope],
    )) as { seconds: number }[];
    return row ? Math.max(1, row.seconds) : 0;
  }

  async failed(address: string, policy: LockoutPolicy = this.adminPolicy): Promise<void> {
    const threshold = policy.afterFailures;
    await this.dataSource.query(
      `INSERT INTO ${tableOf(this.dataSource, 'auth_failures')} AS f (address, scope, failures, last_failure_at, locked_until)
       VALUES ($1, $2, 1, clock_timestamp(), NULL)
       ON CONFLICT (address, scope) DO UPDATE SET
         failures = CASE WHEN f.last_failure_at < clock_timestamp() - make_interval(secs => $3)
                         THEN 1 ELSE f.failures + 1 END,
         last_failure_at = clock_timestamp()`,
      [address, policy.scope, MEMORY_SECONDS],
    );
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'auth_failures')}
          SET locked_until = clock_timestamp()
                + make_interval(secs => least($4::float8 * power(2, failures - $3), $5::float8))
        WHERE address = $1 AND scope = $2 AND failures >= $3`,
      [address, policy.scope, threshold, policy.lockSeconds, MAX_LOCK_SECONDS],
    );
  }

  async succeeded(address: string, policy: LockoutPolicy = this.adminPolicy): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${tableOf(this.dataSource, 'auth_failures')} WHERE address = $1 AND scope = $2`,
      [address, policy.scope],
    );
  }

  /** Drops records that no longer count (nothing locked, last failure forgotten). */
  async prune(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${tableOf(this.dataSource, 'auth_failures')}
        WHERE last_failure_at < clock_timestamp() - make_interval(secs => $1)
          AND (locked_until IS NULL OR locked_until < clock_timestamp())`,
      [MEMORY_SECONDS],
    );
  }
}
