import { DataSource, DataSourceOptions } from 'typeorm';
import { Client } from 'pg';
import { PgErrorCode, pgErrorCode } from './pg-errors';

/**
 * Creates the database when it does not exist. Meant for development and tests, where the platform
 * starts against a bare server; production databases are provisioned ahead.
 */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((err: unknown) => {
        // Another service created it at the same moment: duplicate database or, inside the catalog race,
        // a unique violation.
        const code = pgErrorCode(err);
        if (code !== PgErrorCode.duplicateDatabase && code !== PgErrorCode.uniqueViolation) throw err;
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * Creates the service's schema and runs its pending migrations under a Postgres advisory lock, so that
 * replicas starting together (or a migrations Job) never run the same migration twice.
 */
export async function runMigrations(options: DataSourceOptions): Promise<string[]> {
  const schema = (options as { schema?: string }).schema ?? 'public';
  const dataSource = new DataSource({ ...options, poolSize: 2 } as DataSourceOptions);
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await lock
      .query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`])
      .catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}
