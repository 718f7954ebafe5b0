import { EntityManager } from 'typeorm';

export const KB_JOB_KINDS = ['index_link', 'purge_link', 'purge_document'] as const;
export type KbJobKind = (typeof KB_JOB_KINDS)[number];

export interface NewKbJob {
  kind: KbJobKind;
  partnerId: string;
  linkId?: string;
  documentId?: string;
  /** Not before this time (default: now). */
  runAt?: Date;
}

/** A job as a worker holds it: `token` is the claim, valid until the lease runs out. */
export interface ClaimedKbJob {
  id: string;
  kind: KbJobKind;
  partnerId: string;
  linkId: string | null;
  documentId: string | null;
  /** Including this one. */
  attempts: number;
  maxAttempts: number;
  token: string;
}

/** A failure that retrying cannot fix (unsupported content, a refused URL, a missing file). */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** The worker's claim was taken over (its lease ran out); whatever it did is discarded. */
export class LeaseLostError extends Error {
  constructor(jobId: string) {
    super(`lost the lease of job ${jobId}`);
    this.name = 'LeaseLostError';
  }
}

/** What runs one kind of job. */
export interface KbJobHandler {
  readonly kind: KbJobKind;
  /** Does the work; must end with `finish(em)` in the transaction that commits its result. */
  run(job: ClaimedKbJob, finish: (em: EntityManager) => Promise<void>): Promise<void>;
  /** In the transaction that schedules the next attempt. */
  onRetry?(job: ClaimedKbJob, error: string, em: EntityManager): Promise<void>;
  /** In the transaction that gives the job up. */
  onGiveUp?(job: ClaimedKbJob, error: string, em: EntityManager): Promise<void>;
}

export const KB_JOB_HANDLERS = Symbol('KB_JOB_HANDLERS');
