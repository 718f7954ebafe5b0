import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSourceOptions } from 'typeorm';
import { runMigrations } from '@vap/persistence';
import { TestDatabase } from '@vap/testing';

const adminUrl = (serverUrl: string) => {
  const url = new URL(serverUrl);
  url.pathname = '/postgres';
  return url.toString();
};

const withAdmin = async <T>(serverUrl: string, run: (c: Client) => Promise<T>): Promise<T> => {
  const client = new Client({ connectionString: adminUrl(serverUrl) });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
};

/**
 * Names a template after what its migrations do (their names and code), so it is migrated once and reused by
 * every spec file and run until a migration changes, when a new one is made.
 */
function templateName(label: string, options: DataSourceOptions): string {
  const migrations = (options.migrations ?? []) as unknown[];
  const hash = createHash('sha256');
  for (const m of migrations) {
    const up = typeof m === 'function' ? (m.prototype as { up?: unknown }).up : undefined;
    hash.update(typeof m === 'function' ? `${m.name}\n${String(up)}\n` : `${String(m)}\n`);
  }
  return `vap_tpl_${label}_${hash.digest('hex').slice(0, 12)}`;
}

/**
 * A fresh database with the app's migrations run, copied (CREATE DATABASE ... TEMPLATE) from a template that is
 * migrated once, which is far faster than running every migration per spec file.
 */
export async function createMigratedDatabase(
  serverUrl: string,
  label: string,
  dataSource: (url: string) => DataSourceOptions,
): Promise<TestDatabase> {
  const template = templateName(label, dataSource(serverUrl));
  const name = `vap_it_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await withAdmin(serverUrl, async (admin) => {
    // One spec file makes the template; the others wait for it (an advisory lock per template name).
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (exists.rowCount === 0) {
        const building = `${template}_building`;
        await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
        await admin.query(`CREATE DATABASE "${building}"`);
        const buildingUrl = new URL(serverUrl);
        buildingUrl.pathname = `/${building}`;
        await runMigrations(dataSource(buildingUrl.toString()));
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
        await admin.query(`ALTER DATABASE "${template}" WITH IS_TEMPLATE true`);
      }
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
    }
  });
  return {
    name,
    url: url.toString(),
    drop: () =>
      withAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
