import { BoolSetting, IntSetting } from '@vap/runtime';

/** Knowledge-base indexing settings of the agents service, validated at boot. */
export class KnowledgeConfig {
  /**
   * Web links may point at private, loopback and link-local addresses only when this or the platform-wide
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS is true (development and tests; never in production).
   */
  @BoolSetting()
  KB_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** The platform-wide development/test switch; true also lets web links reach private addresses. */
  @BoolSetting()
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** Deadline of one web-link fetch, redirects included. */
  @IntSetting({ min: 1000, max: 120_000 })
  KB_FETCH_TIMEOUT_MS: number = 15_000;

  /** Largest web-link response accepted. */
  @IntSetting({ min: 1024, max: 50 * 1024 * 1024 })
  KB_FETCH_MAX_BYTES: number = 10 * 1024 * 1024;

  /** Indexing jobs one replica runs at once; 0 turns this replica's worker off. */
  @IntSetting({ min: 0, max: 32 })
  KB_WORKER_CONCURRENCY: number = 2;

  /** How often an idle worker looks for due jobs (new jobs also wake it at once). */
  @IntSetting({ min: 50, max: 60_000 })
  KB_JOB_POLL_MS: number = 1000;

  /** Attempts before a job is given up (the link then shows index_status failed). */
  @IntSetting({ min: 1, max: 20 })
  KB_JOB_MAX_ATTEMPTS: number = 5;

  /** First retry delay; each further attempt waits four times longer, capped at 15 minutes. */
  @IntSetting({ min: 100, max: 600_000 })
  KB_JOB_RETRY_BASE_MS: number = 5000;

  /** A running job whose worker stops renewing it for this long is taken over by another worker. */
  @IntSetting({ min: 5000, max: 3_600_000 })
  KB_JOB_LEASE_MS: number = 60_000;

  get allowPrivateNetworks(): boolean {
    return this.KB_ALLOW_PRIVATE_NETWORKS || this.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  }
}
