import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { deleteJetStreamByPrefix, ResolvedNats, resolveNats, workspaceRoot } from '@vap/testing';

export interface BenchNats {
  nats: ResolvedNats;
  /** NATS subject prefix of this run, so a benchmark never meets another deployment's traffic. */
  prefix: string;
  /** Removes the run's stream, then stops the NATS server if one was started for it. */
  close(): Promise<void>;
}

/**
 * NATS found the way `npm start` finds it and a subject prefix of its own: for benchmarks of a service that
 * keeps no rows (the voice media plane), which need no database.
 */
export async function openBenchNats(): Promise<BenchNats> {
  const nats = await resolveNats({ dataDir: join(workspaceRoot(), '.data') });
  const prefix = `bench_${randomBytes(3).toString('hex')}`;
  return {
    nats,
    prefix,
    async close() {
      await deleteJetStreamByPrefix(nats.url, prefix).catch(() => undefined);
      await nats.stop();
    },
  };
}
