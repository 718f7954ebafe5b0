import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { DEV_SANDBOX_AUTH_TOKEN, DEV_SECRETS_KEY } from '@vap/secrets';
import { serviceMainPath } from '@vap/testing';

const APPS = ['gateway', 'agents', 'calls', 'campaigns', 'webhooks', 'voice'];

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
      expect(result.stderr.match(new RegExp(`- ${name}: `, 'g'))).toHaveLength(1);
    expect(result.stderr).toContain('- PORT: PORT must be an integer number (got "eighty")');
    expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('names a bad secret and a bad database URL without printing the secret or the password', () => {
    const secret = 'ab'.repeat(31) + 'c';
    const result = boot('webhooks', {
      NODE_ENV: 'test',
      SECRETS_KEY: secret,
      DATABASE_URL: 'mysql://user:SuperSecretPw@db/x',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/- SECRETS_KEY: .*\(a value of 63 characters, not shown\)/);
    expect(result.stderr).toMatch(/- DATABASE_URL: .*mysql:\/\/user:\*\*\*@db\/x/);
    expect(result.stderr).not.toContain(secret.slice(0, 16));
    expect(result.stderr).not.toContain('SuperSecretPw');
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
      '  - WEBHOOK_LEASE_MS: WEBHOOK_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS (10000) (got "10000")',
    ]);
  });

  it('the gateway refuses to start in production without an operator token', () => {
    const result = boot('gateway', { NODE_ENV: 'production' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/- ADMIN_API_TOKEN: ADMIN_API_TOKEN must be set/);
  });

  // Nothing listens there: an app whose settings pass fails at its first connection instead, quickly.
  const unreachable = {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
    NATS_URL: 'nats://127.0.0.1:1',
  };

  it.each([
    ['gateway', ['ADMIN_API_TOKEN', 'PUBLIC_BASE_URL', 'signingSecret']],
    ['agents', ['signingSecret']],
    ['calls', ['PUBLIC_BASE_URL', 'SECRETS_KEY', 'signingSecret']],
    ['webhooks', ['SECRETS_KEY']],
    ['voice', ['STREAM_TOKEN_KEY', 'MEDIA_PUBLIC_URL', 'STT_PROVIDER', 'TTS_PROVIDER']],
  ])('an unset NODE_ENV is production: %s gets no development defaults', (app, missing) => {
    const result = boot(app, unreachable);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${app}: refusing to start`);
    for (const name of missing) expect(result.stderr).toMatch(new RegExp(`- ${name}: `));
  });

  const developmentSecret =
    'a development-only value, refused unless NODE_ENV=development (set a secret of your own)';
  const devKeyBase64 = Buffer.from(DEV_SECRETS_KEY, 'hex').toString('base64');

  it.each(['production', 'test'])(
    'with NODE_ENV=%s the gateway refuses the development operator token and secrets key, one line each',
    (NODE_ENV) => {
      const result = boot('gateway', {
        ...unreachable,
        NODE_ENV,
        ADMIN_API_TOKEN: 'dev-admin-token',
        SECRETS_KEY: DEV_SECRETS_KEY,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`- ADMIN_API_TOKEN: ${developmentSecret}\n`);
      expect(result.stderr).toContain(`- SECRETS_KEY: ${developmentSecret}\n`);
      expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    },
  );

  it.each(['agents', 'calls', 'webhooks'])(
    'in production %s refuses the development secrets key, in any encoding',
    (app) => {
      for (const SECRETS_KEY of [DEV_SECRETS_KEY, devKeyBase64]) {
        const result = boot(app, {
          ...unreachable,
          NODE_ENV: 'production',
          SECRETS_KEY,
          PUBLIC_BASE_URL: 'https://api.example.com',
        });
        expect(result.status).toBe(1);
        expect(result.stderr).toContain(`- SECRETS_KEY: ${developmentSecret}\n`);
      }
    },
  );

  it('voice takes its stream-token key and no master or signing key: it refuses SECRETS_KEY outside development', () => {
    const voice = {
      ...unreachable,
      NODE_ENV: 'production',
      MEDIA_PUBLIC_URL: 'https://media.example.com',
      STREAM_TOKEN_KEY: randomBytes(32).toString('base64'),
      STT_PROVIDER: 'offline',
      TTS_PROVIDER: 'offline',
    };
    // The derived key alone, with the local blob driver and no signing key, passes; it fails only to connect.
    const alone = boot('voice', voice);
    expect(alone.status).toBe(1);
    expect(alone.stderr).not.toContain('refusing to start');
    expect(alone.stderr).toContain('voice: failed to start');
    const withMaster = boot('voice', { ...voice, SECRETS_KEY: randomBytes(32).toString('hex') });
    expect(withMaster.status).toBe(1);
    expect(withMaster.stderr).toMatch(
      /- SECRETS_KEY: voice does not take the master key; give it STREAM_TOKEN_KEY/,
    );
  });

  it('in production the calls service and the sandbox carrier refuse the development sandbox auth token', () => {
    const calls = boot('calls', {
      ...unreachable,
      NODE_ENV: 'production',
      SECRETS_KEY: randomBytes(32).toString('hex'),
      PUBLIC_BASE_URL: 'https://api.example.com',
      SANDBOX_AUTH_TOKEN: DEV_SANDBOX_AUTH_TOKEN,
    });
    expect(calls.status).toBe(1);
    expect(calls.stderr).toContain(`- SANDBOX_AUTH_TOKEN: ${developmentSecret}\n`);
    const sandbox = boot('sandbox-carrier', {
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://api.example.com',
      MEDIA_PUBLIC_URL: 'https://media.example.com',
      SANDBOX_AUTH_TOKEN: DEV_SANDBOX_AUTH_TOKEN,
    });
    expect(sandbox.status).toBe(1);
    expect(sandbox.stderr).toContain(`- SANDBOX_AUTH_TOKEN: ${developmentSecret}\n`);
  });

  it.each(['production', 'test'])(
    'with NODE_ENV=%s voice refuses to start until its speech providers are named, offline included',
    (NODE_ENV) => {
      const env = {
        ...unreachable,
        NODE_ENV,
        STREAM_TOKEN_KEY: randomBytes(32).toString('base64'),
        MEDIA_PUBLIC_URL: 'https://media.example.com',
      };
      const refused = boot('voice', env);
      expect(refused.status).toBe(1);
      const problems = refused.stderr.split('\n').filter((line) => line.startsWith('  - '));
      expect(problems).toEqual([
        expect.stringMatching(
          /^ {2}- STT_PROVIDER: STT_PROVIDER must be chosen outside development: .*\(not set\)$/,
        ),
        expect.stringMatching(
          /^ {2}- TTS_PROVIDER: TTS_PROVIDER must be chosen outside development: .*\(not set\)$/,
        ),
      ]);
      const named = boot('voice', { ...env, STT_PROVIDER: 'offline', TTS_PROVIDER: 'offline' });
      expect(named.stderr).not.toContain('refusing to start');
      expect(named.stderr).toContain('voice: failed to start');
    },
  );

  it.each(['gateway', 'calls', 'webhooks', 'voice'])(
    'with NODE_ENV=development %s takes the development defaults and gets as far as connecting',
    (app) => {
      const result = boot(app, { ...unreachable, NODE_ENV: 'development' });
      expect(result.status).toBe(1);
      expect(result.stderr).not.toContain('refusing to start');
      expect(result.stderr).toContain(`${app}: failed to start`);
    },
  );
});
