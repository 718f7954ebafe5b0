import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh database on the given server for one test run, so that runs never share state. */
export async function createTestDatabase(serverUrl: string, label = 'vap_test'): Promise<TestDatabase> {
  const name = `${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
