import { Transform } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { toInt } from '@vap/runtime';

/** Knowledge-base indexing settings of the agents service, validated at boot. */
export class KnowledgeConfig {
  /**
   * Web links may point at private, loopback and link-local addresses only when this or the platform-wide
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS is true (development and tests; never in production).
   */
  @IsIn(['true', 'false'])
  KB_ALLOW_PRIVATE_NETWORKS: string = 'false';

  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: string = 'false';

  /** Deadline of one web-link fetch, redirects included. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(120_000)
  KB_FETCH_TIMEOUT_MS: number = 15_000;

  /** Largest web-link response accepted. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(50 * 1024 * 1024)
  KB_FETCH_MAX_BYTES: number = 10 * 1024 * 1024;

  /** Indexing jobs one replica runs at once; 0 turns this replica's worker off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(32)
  KB_WORKER_CONCURRENCY: number = 2;

  /** How often an idle worker looks for due jobs (new jobs also wake it at once). */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  KB_JOB_POLL_MS: number = 1000;

  /** Attempts before a job is given up (the link then shows index_status failed). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  KB_JOB_MAX_ATTEMPTS: number = 5;

  /** First retry delay; each further attempt waits four times longer, capped at 15 minutes. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  KB_JOB_RETRY_BASE_MS: number = 5000;

  /** A running job whose worker stops renewing it for this long is taken over by another worker. */
  @Transform(toInt)
  @IsInt()
  @Min(5000)
  @Max(3_600_000)
  KB_JOB_LEASE_MS: number = 60_000;

  get allowPrivateNetworks(): boolean {
    return this.KB_ALLOW_PRIVATE_NETWORKS === 'true' || this.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true';
  }
}
