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

  it('the gateway refuses to start in production without an operator token', () => {
    const result = boot('gateway', { NODE_ENV: 'production' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/- ADMIN_API_TOKEN: ADMIN_API_TOKEN must be set/);
  });
});
