import {
  EntityManager,
  EntitySubscriberInterface,
  EventSubscriber,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';

type Wakeup = (payload: string) => void;

/** This process's listeners by channel (ClaimLoops, the campaigns dispatcher). */
const listeners = new Map<string, Set<Wakeup>>();
/** Where a transaction keeps the wake-ups it owes at commit (QueryRunner.data is TypeORM's per-runner bag). */
const PENDING = Symbol('commit-wakeups');
/** Where it keeps what was asked to run when it ends (afterTransaction). */
const OUTCOMES = Symbol('transaction-outcomes');

/** What to run once a transaction ends, by how it ended. */
export interface TransactionOutcome {
  committed(): void;
  rolledBack(): void;
}

type RunnerData = { [PENDING]?: Map<string, Set<string>>; [OUTCOMES]?: TransactionOutcome[] };

/**
 * Listens for `channel` in this process; answers the function that stops listening. Wake-ups are hints:
 * a listener must find its work by itself (a claim query), and find it by polling too.
 */
export function onCommitWakeup(channel: string, wakeup: Wakeup): () => void {
  let set = listeners.get(channel);
  if (!set) listeners.set(channel, (set = new Set()));
  set.add(wakeup);
  return () => {
    set.delete(wakeup);
    if (set.size === 0 && listeners.get(channel) === set) listeners.delete(channel);
  };
}

function wake(channel: string, payload: string): void {
  for (const wakeup of listeners.get(channel) ?? []) {
    try {
      wakeup(payload);
    } catch {
      // A listener's failure is its own; the others still wake.
    }
  }
}

/**
 * Wakes this process's listeners of `channel` once `em`'s transaction commits, when what it wrote is
 * visible (at once outside a transaction); nothing if it rolls back.
 *
 * Used instead of NOTIFY on hot paths: Postgres serialises the commits of every transaction that sent a
 * NOTIFY, database-wide and across the WAL flush, which caps how many such commits all services together
 * make per second. Other replicas of the service find the work at their next poll; the replica that wrote it
 * takes it at once.
 */
export function wakeAfterCommit(em: EntityManager, channel: string, payload = ''): void {
  const runner = em.queryRunner;
  if (!runner?.isTransactionActive) {
    wake(channel, payload);
    return;
  }
  const data = runner.data as RunnerData;
  const pending = (data[PENDING] ??= new Map());
  let payloads = pending.get(channel);
  if (!payloads) pending.set(channel, (payloads = new Set()));
  payloads.add(payload);
}

/**
 * Runs `outcome.committed` once `em`'s transaction commits (at once outside a transaction), or
 * `outcome.rolledBack` if it rolls back: for work that may only start once what the transaction wrote is
 * visible, and must be undone in memory if it never will be.
 */
export function afterTransaction(em: EntityManager, outcome: TransactionOutcome): void {
  const runner = em.queryRunner;
  if (!runner?.isTransactionActive) {
    outcome.committed();
    return;
  }
  ((runner.data as RunnerData)[OUTCOMES] ??= []).push(outcome);
}

function settle(runner: QueryRunner | undefined, committed: boolean): void {
  // A savepoint's release or rollback leaves the outer transaction open: its commit decides.
  if (!runner || runner.isTransactionActive) return;
  const data = runner.data as RunnerData;
  const outcomes = data[OUTCOMES];
  delete data[OUTCOMES];
  for (const outcome of outcomes ?? []) {
    try {
      if (committed) outcome.committed();
      else outcome.rolledBack();
    } catch {
      // One caller's failure is its own; the others still run.
    }
  }
  const pending = data[PENDING];
  if (!pending) return;
  delete data[PENDING];
  if (!committed) return;
  for (const [channel, payloads] of pending) for (const payload of payloads) wake(channel, payload);
}

/** Delivers the wake-ups of wakeAfterCommit; every service's data source has it (schemaDataSourceOptions). */
@EventSubscriber()
export class CommitWakeupSubscriber implements EntitySubscriberInterface {
  afterTransactionCommit(event: TransactionCommitEvent): void {
    settle(event.queryRunner, true);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    settle(event.queryRunner, false);
  }
}
