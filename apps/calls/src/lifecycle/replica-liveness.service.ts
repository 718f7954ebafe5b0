import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

/** Advisory-lock class of replica liveness locks (the second key is hashtext of the replica id). */
const LIVENESS_LOCK_CLASS = 7201;
const RELOCK_MS = 1000;

/**
 * This calls replica's identity and proof of life. Each replica holds a Postgres session advisory lock
 * keyed by its id on a connection of its own for as long as it runs; Postgres drops the lock the moment
 * the process dies (kill -9, OOM, lost host: the session ends). A call records the replica that drives it
 * (owner_id), and any replica that can take an owner's lock knows that owner is gone.
 */
@Injectable()
export class ReplicaLiveness implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReplicaLiveness.name);
  readonly id = randomUUID();
  private client?: Client;
  private relockTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Taken before the app serves commands, so no call is ever owned by a replica without its lock. */
  async onModuleInit(): Promise<void> {
    await this.lock();
  }

  /**
   * True when the owner's lock is free, i.e. no live session holds it. Takes the lock for the rest of the
   * caller's transaction only, so two replicas checking at once do not mistake each other for the owner.
   */
  async isGone(em: EntityManager, ownerId: string): Promise<boolean> {
    if (ownerId === this.id) return false;
    const [row] = (await em.query('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS free', [
      LIVENESS_LOCK_CLASS,
      ownerId,
    ])) as { free: boolean }[];
    return row.free;
  }

  private async lock(): Promise<void> {
    const options = this.dataSource.options as { url?: string; applicationName?: string };
    const client = new Client({
      connectionString: options.url,
      application_name: `${options.applicationName ?? 'calls'}:liveness`,
    });
    const lost = (reason: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      // Until the lock is back, other replicas may take this one for dead and end its calls.
      this.logger.error(`liveness lock lost (${reason}); taking it again`);
      client.end().catch(() => undefined);
      this.relock();
    };
    client.on('error', (err) => lost(err.message));
    client.on('end', () => lost('connection closed'));
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LIVENESS_LOCK_CLASS, this.id]);
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private relock(): void {
    if (this.stopped || this.relockTimer) return;
    this.relockTimer = setTimeout(() => {
      this.relockTimer = undefined;
      this.lock().catch((err) => {
        this.logger.error(`liveness lock unavailable: ${(err as Error).message}`);
        this.relock();
      });
    }, RELOCK_MS);
  }

  /** A replica that stops on purpose ends its own calls (SandboxCallRunner); the lock just goes with it. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.relockTimer) clearTimeout(this.relockTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
