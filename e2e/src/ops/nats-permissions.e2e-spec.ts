import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, ErrorCode } from 'nats';
import { NATS_SERVICES, natsAccountsConfig, natsPasswordVariable } from '@vap/messaging';
import {
  createTestDatabase,
  freePort,
  OFFLINE_SPEECH,
  Platform,
  ResolvedNats,
  spawnNatsServer,
  startPlatform,
  TestDatabase,
} from '@vap/testing';
import { api, e2eEnv } from '../../support';
import { E2E_MEDIA_TIME_SCALE } from '../../support/env';
import { callee, VOICE_ID } from '../calls/call-fixtures';

/**
 * The whole platform on a NATS server that runs the generated accounts, as compose and the Kubernetes
 * overlays do: every app connects as its own user with only its own permissions, and a call still goes from
 * the API through calls, the sandbox carrier's media stream to voice (which asks agents and reports to
 * calls), post-call processing, billing by the gateway and the events the services consume.
 */
describe('the platform on NATS with a user per service', () => {
  const run = e2eEnv();
  const prefix = `${run.natsPrefix}_natsauth`;
  const adminToken = randomBytes(16).toString('hex');
  const passwords = Object.fromEntries(NATS_SERVICES.map((s) => [s, `n${randomBytes(16).toString('hex')}`]));
  let dir: string;
  let nats: ResolvedNats;
  let db: TestDatabase;
  let platform: Platform;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vap-e2e-natsauth-'));
    writeFileSync(join(dir, 'accounts.conf'), natsAccountsConfig({ subjectPrefix: prefix }));
    nats = await spawnNatsServer({
      dataDir: dir,
      configFile: join(dir, 'accounts.conf'),
      env: Object.fromEntries(NATS_SERVICES.map((s) => [natsPasswordVariable(s), passwords[s]])),
    });
    db = await createTestDatabase(run.databaseUrl, 'vap_e2e_natsauth');
    const gatewayPort = await freePort();
    platform = await startPlatform({
      readyTimeoutMs: 90_000,
      databaseUrl: db.url,
      natsUrl: nats.url,
      subjectPrefix: prefix,
      gatewayPorts: [gatewayPort],
      logDir: run.logDir ? join(run.logDir, 'natsauth') : undefined,
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        ADMIN_API_TOKEN: adminToken,
        SECRETS_KEY: run.secretsKey,
        CALLBACK_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
        MEDIA_TIME_SCALE: E2E_MEDIA_TIME_SCALE,
        ...OFFLINE_SPEECH,
        // The test polls the call; the contract's 10/minute under /calls is not what it checks.
        RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
        RATE_LIMIT_CALLS_PER_MINUTE: '100000',
        RATE_LIMIT_ACCOUNT_GENERAL_PER_MINUTE: '100000',
        RATE_LIMIT_ACCOUNT_CALLS_PER_MINUTE: '100000',
      },
      appEnv: Object.fromEntries(NATS_SERVICES.map((s) => [s, { NATS_PASSWORD: passwords[s] }])),
    });
    base = platform.gatewayUrl;
  }, 150_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
    await nats?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a client without a service’s credentials', async () => {
    await expect(connect({ servers: nats.url, maxReconnectAttempts: 0 })).rejects.toMatchObject({
      code: ErrorCode.AuthorizationViolation,
    });
  });

  it('is ready (the gateway pings every service), and a sandbox call runs, is transcribed, recorded and billed', async () => {
    expect((await api('/health/ready', { baseUrl: base })).status).toBe(200);
    const created = await api('/admin/v1/partners', {
      method: 'POST',
      token: adminToken,
      baseUrl: base,
      body: { name: 'NATS Users Co', balance_inr: 100 },
    });
    expect([200, 201]).toContain(created.status);
    const key = created.body.data.api_key;
    const agent = await api('/agent', {
      method: 'POST',
      key,
      baseUrl: base,
      body: {
        agent_name: 'Permissions agent',
        prompt: 'You help.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
        intro_message: 'Hi, this is the permissions check.',
      },
    });
    expect(agent.status).toBe(200);
    const started = await api('/calls/start', {
      method: 'POST',
      key,
      baseUrl: base,
      body: { agent_id: agent.body.data.id, to_number: callee('42') },
    });
    expect(started.status).toBe(200);
    const id = started.body.data.call_id;
    const deadline = Date.now() + 90_000;
    let call = started.body.data;
    while (!call.session?.processing_complete && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      call = (await api(`/calls/${id}`, { key, baseUrl: base })).body.data;
    }
    expect(call).toMatchObject({ status: 'completed' });
    expect(call.duration_seconds).toBeGreaterThan(0);
    expect(call.session.processing_complete).toBe(true);
    // voice spoke (agents' voice catalog over NATS) and heard the callee, and reported both to calls.
    const roles = (call.session.transcript as { role: string }[]).map((l) => l.role);
    expect(roles).toEqual(expect.arrayContaining(['bot', 'user']));
    expect(call.session.recording_url).toEqual(expect.any(String));
    expect(call.session.credits_used).toBeGreaterThan(0);
    // The gateway debited the charge from calls' session.completed event (or its reconciliation over NATS).
    const chargedBy = Date.now() + 30_000;
    let balance = 100;
    while (balance === 100 && Date.now() < chargedBy) {
      await new Promise((r) => setTimeout(r, 500));
      balance = (await api('/billing/balance', { key, baseUrl: base })).body.data.balance_inr;
    }
    expect(balance).toBeLessThan(100);
    // Nothing any app did along the way was refused by the server.
    const serverLog = readFileSync(join(dir, 'nats-server.log'), 'utf8');
    expect(serverLog).toMatch(/Server is ready/);
    expect(
      serverLog.split('\n').filter((l) => /(Publish|Subscription|Permissions) Violation/i.test(l)),
    ).toEqual([]);
  }, 150_000);
});
