import { spawnSync } from 'node:child_process';
import { serviceMainPath } from '@vap/testing';

const APPS = ['gateway', 'agents', 'calls', 'campaigns', 'webhooks'];

/** Starts a built app with the given environment only and returns how it ended. */
function boot(app: string, env: Record<string, string>) {
  const run = spawnSync(process.execPath, [serviceMainPath(app)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, stderr: run.stderr, stdout: run.stdout };
}

describe('configuration is validated at boot', () => {
  it.each(APPS)('%s refuses bad values with one clear line per problem and no stack trace', (app) => {
    const result = boot(app, {
      NODE_ENV: 'production',
      DATABASE_URL: 'mysql://root@localhost/db',
      NATS_URL: 'http://localhost:4222',
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${app}: refusing to start`);
    for (const name of ['DATABASE_URL', 'NATS_URL', 'PORT', 'LOG_LEVEL'])
      expect(result.stderr).toMatch(new RegExp(`- ${name}: `));
    expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('webhooks refuses a delivery lease that does not outlast the delivery timeout, in one line', () => {
    const result = boot('webhooks', {
      NODE_ENV: 'test',
      SECRETS_KEY: 'ab'.repeat(32),
      WEBHOOK_TIMEOUT_MS: '10000',
      WEBHOOK_LEASE_MS: '10000',
    });
    expect(result.status).toBe(1);
    const problems = result.stderr.split('\n').filter((line) => line.startsWith('  - '));
    expect(problems).toEqual([
      '  - WEBHOOK_LEASE_MS: WEBHOOK_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS (10000) (got 10000)',
    ]);
  });

  it('the gateway refuses to start in production without an operator token', () => {
    const result = boot('gateway', { NODE_ENV: 'production' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/- ADMIN_API_TOKEN: ADMIN_API_TOKEN must be set/);
  });
});
