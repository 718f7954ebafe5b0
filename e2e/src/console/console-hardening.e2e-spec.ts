// The console's unauthenticated surfaces on a gateway of their own (own database, so the counts of the run's
// other specs, all from loopback, never meet these): requests from other sites, made-up links, lockouts that
// a stranger could aim at a user, the operator's user routes' address limit, links built from what a client
// claims, and console files that do not exist. The gateway believes one proxy (TRUST_PROXY_HOPS=1), so each
// test gives its clients addresses of their own in X-Forwarded-For.
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createTestDatabase, freePort, ServiceHandle, startService, TestDatabase } from '@vap/testing';
import { api, e2eEnv } from '../../support';
import { ConsoleClient } from './console-fixtures';

const PUBLIC_BASE_URL = 'https://console.example.test';
const PASSWORD = 'a long enough passphrase';
const email = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;
const from = (address: string) => ({ 'x-forwarded-for': address });

/** CPU seconds a process has used (user and system, every thread: scrypt runs on libuv's). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime, the 14th and 15th fields of the line (12th and 13th after the command), in ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe('console hardening', () => {
  let db: TestDatabase;
  let gateway: ServiceHandle;
  let adminToken: string;
  let partnerId: string;

  /** An operator request from an address of the test's own. */
  const admin = (path: string, address: string, options: { method?: string; body?: unknown } = {}) =>
    api(`/admin/v1${path}`, { ...options, token: adminToken, baseUrl: gateway.url, headers: from(address) });

  async function invite(address: string, who = email('user'), role = 'owner'): Promise<string> {
    const res = await admin(`/partners/${partnerId}/users`, address, {
      body: { email: who, name: 'Test User', role },
    });
    expect(res.status).toBe(200);
    return res.body.data.invitation_url;
  }

  /** A user with a password, and their email. */
  async function activeUser(address: string): Promise<string> {
    const who = email('active');
    const link = await invite(address, who);
    expect((await new ConsoleClient(gateway.url, from(address)).useLink(link, PASSWORD)).status).toBe(200);
    return who;
  }

  beforeAll(async () => {
    const env = e2eEnv();
    adminToken = env.adminToken;
    db = await createTestDatabase(env.databaseUrl, 'vap_e2e_console_hard');
    gateway = await startService('gateway', {
      port: await freePort(),
      label: 'gateway-console-hardening',
      readyPath: '/health/live',
      logFile: env.logDir ? `${env.logDir}/gateway-console-hardening.log` : undefined,
      env: {
        DATABASE_URL: db.url,
        NATS_URL: env.natsUrl,
        NATS_SUBJECT_PREFIX: `${env.natsPrefix}_console_hard`,
        ADMIN_API_TOKEN: env.adminToken,
        SECRETS_KEY: env.secretsKey,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        TRUST_PROXY_HOPS: '1',
        PUBLIC_BASE_URL,
        RATE_LIMIT_ADDRESS_ADMIN_PER_MINUTE: '10',
      },
    });
    const created = await api('/admin/v1/partners', {
      token: adminToken,
      baseUrl: gateway.url,
      headers: from('198.51.100.200'),
      body: { name: 'Console Hardening Co', status: 'approved' },
    });
    expect(created.status).toBe(200);
    partnerId = created.body.data.partner.id;
  }, 90_000);

  afterAll(async () => {
    await gateway?.stop();
    await db?.drop();
  });

  it('refuses sign-in, invitations and resets from another origin before anything is done', async () => {
    const address = '198.51.100.1';
    const who = email('origin');
    const link = await invite(address, who);
    const token = link.split('/').pop()!;
    const client = new ConsoleClient(gateway.url, from(address));
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: PUBLIC_BASE_URL },
    ];
    for (const headers of crossSite) {
      const res = await client.request('POST', `/invitations/${token}`, {
        body: { password: PASSWORD },
        headers,
      });
      expect({ headers, status: res.status, code: res.body.error.code }).toEqual({
        headers,
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    // The link was not used up: it still works, from the console's own origin.
    expect((await client.request('GET', `/invitations/${token}`)).status).toBe(200);
    const accepted = await client.request('POST', `/invitations/${token}`, {
      body: { password: PASSWORD },
      headers: { origin: PUBLIC_BASE_URL, 'sec-fetch-site': 'same-origin' },
    });
    expect(accepted.status).toBe(200);

    const stranger = new ConsoleClient(gateway.url, from(address));
    for (const headers of crossSite) {
      const res = await stranger.request('POST', '/session', {
        body: { email: who, password: PASSWORD },
        headers,
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    // The gateway's own host (as a browser asked it), and a client that is no browser, sign in.
    const sameHost = await stranger.request('POST', '/session', {
      body: { email: who, password: PASSWORD },
      headers: { origin: gateway.url },
    });
    expect(sameHost.status).toBe(200);
    expect((await new ConsoleClient(gateway.url, from(address)).signIn(who, PASSWORD)).status).toBe(200);

    const userId = accepted.body.data.user.id;
    const reset = await admin(`/partners/${partnerId}/users/${userId}/password-reset`, address, {
      method: 'POST',
    });
    const resetToken = (reset.body.data.reset_url as string).split('/').pop()!;
    const refused = await client.request('POST', `/password-resets/${resetToken}`, {
      body: { password: `${PASSWORD} anew` },
      headers: { origin: 'https://evil.example' },
    });
    expect(refused.status).toBe(403);
    expect((await client.request('GET', `/password-resets/${resetToken}`)).status).toBe(200);
  });

  it('looks a link up before hashing the password it sets', async () => {
    // Ten sign-ins of unknown emails each verify a password (scrypt, against a decoy hash); ten uses of
    // made-up links must cost far less than that, not ten hashes.
    const signIns = async () => {
      for (let i = 0; i < 10; i++) {
        const res = await new ConsoleClient(gateway.url, from(`198.51.100.${20 + i}`)).signIn(
          email('nobody'),
          PASSWORD,
        );
        expect(res.status).toBe(401);
      }
    };
    const madeUpLinks = async () => {
      for (let i = 0; i < 10; i++) {
        const client = new ConsoleClient(gateway.url, from(`198.51.100.${40 + i}`));
        const kind = i % 2 ? 'invitations' : 'password-resets';
        const res = await client.request('POST', `/${kind}/cinv_${randomBytes(32).toString('base64url')}`, {
          body: { password: PASSWORD },
        });
        expect(res.status).toBe(404);
      }
    };
    const cost = async (work: () => Promise<void>) => {
      const before = cpuSeconds(gateway.pid);
      await work();
      return cpuSeconds(gateway.pid) - before;
    };
    await madeUpLinks(); // warm-up: the first requests of a route compile code
    const hashing = await cost(signIns);
    const links = await cost(madeUpLinks);
    expect(hashing).toBeGreaterThan(0.2);
    expect(links).toBeLessThan(hashing / 3);
  });

  it('counts wrong passwords per email and address: a stranger cannot lock the user out elsewhere', async () => {
    const who = await activeUser('198.51.100.60');
    const attacker = new ConsoleClient(gateway.url, from('203.0.113.60'));
    for (let i = 0; i < 5; i++)
      expect((await attacker.signIn(who, 'not the password at all')).status).toBe(401);
    const locked = await attacker.signIn(who, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('RATE_LIMITED');
    // The user, from their own address, signs in.
    expect((await new ConsoleClient(gateway.url, from('198.51.100.61')).signIn(who, PASSWORD)).status).toBe(
      200,
    );
  });

  it('counts an IPv6 client as its /64', async () => {
    const who = await activeUser('198.51.100.70');
    // Ten wrong sign-ins, each from another address of one /64 and for another email: one client's ten.
    for (let i = 1; i <= 10; i++) {
      const client = new ConsoleClient(gateway.url, from(`2001:db8:70:1::${i}`));
      expect((await client.signIn(email('nobody'), PASSWORD)).status).toBe(401);
    }
    // Another address of the same /64 is the same client: locked out, even with the right password.
    const same = await new ConsoleClient(gateway.url, from('2001:db8:70:1:ffff::9')).signIn(who, PASSWORD);
    expect(same.status).toBe(429);
    // Another /64 is another client.
    const other = await new ConsoleClient(gateway.url, from('2001:db8:70:2::1')).signIn(who, PASSWORD);
    expect(other.status).toBe(200);
  });

  it("limits the operator's user routes per address, as the rest of the operator API", async () => {
    const address = '198.51.100.80';
    for (let i = 0; i < 10; i++)
      expect((await admin(`/partners/${partnerId}/users`, address)).status).toBe(200);
    for (const res of [
      await admin(`/partners/${partnerId}/users`, address),
      await admin(`/partners/${partnerId}/users`, address, {
        body: { email: email('late'), name: 'Late', role: 'viewer' },
      }),
    ]) {
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('RATE_LIMITED');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await admin(`/partners/${partnerId}/users`, '198.51.100.81')).status).toBe(200);
  });

  it('builds invitation and reset links on PUBLIC_BASE_URL, whatever Host and X-Forwarded-Proto say', async () => {
    // fetch sets Host itself: a raw request sends the hostile one.
    const hostile = (method: string, path: string, body?: unknown) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = httpRequest(
          `${gateway.url}${path}`,
          {
            method,
            headers: {
              host: 'evil.example',
              'x-forwarded-proto': 'javascript',
              'x-forwarded-host': 'evil.example',
              'x-forwarded-for': '198.51.100.90',
              authorization: `Bearer ${adminToken}`,
              ...(payload ? { 'content-type': 'application/json' } : {}),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    const invited = await hostile('POST', `/admin/v1/partners/${partnerId}/users`, {
      email: email('links'),
      name: 'Link User',
      role: 'developer',
    });
    expect(invited.status).toBe(200);
    expect(invited.body.data.invitation_url).toMatch(
      new RegExp(`^${PUBLIC_BASE_URL}/console/invitations/cinv_[A-Za-z0-9_-]{43}$`),
    );
    const reset = await hostile(
      'POST',
      `/admin/v1/partners/${partnerId}/users/${invited.body.data.user.id}/password-reset`,
    );
    expect(reset.status).toBe(200);
    expect(reset.body.data.reset_url).toMatch(
      new RegExp(`^${PUBLIC_BASE_URL}/console/password-resets/crst_`),
    );
  });

  it('lets one email be a user of several accounts, signing in to the one chosen among those it matches', async () => {
    const address = '198.51.100.100';
    const partner = async (name: string) => {
      const res = await admin('/partners', address, { body: { name, status: 'approved' } });
      expect(res.status).toBe(200);
      return { id: res.body.data.partner.id as string, name };
    };
    const accountA = { id: partnerId, name: 'Console Hardening Co' };
    const accountB = await partner('Alpha Widgets');
    const accountC = await partner('Other Password Co');
    const stranger = await partner('Stranger Co');
    const who = email('several');
    const join = async (accountId: string, password: string) => {
      const res = await admin(`/partners/${accountId}/users`, address, {
        body: { email: who, name: 'Several', role: 'owner' },
      });
      // Another account having a user of this email is no conflict, and is never told.
      expect(res.status).toBe(200);
      const client = new ConsoleClient(gateway.url, from(address));
      expect((await client.useLink(res.body.data.invitation_url, password)).status).toBe(200);
      return client;
    };
    const ownerOfA = await join(accountA.id, PASSWORD);
    await join(accountB.id, PASSWORD);
    await join(accountC.id, `${PASSWORD} of C`);

    // Within one account the email stays unique; the answer names no other account.
    const again = await ownerOfA.request('POST', '/team/invitations', {
      body: { email: who.toUpperCase(), name: 'Again', role: 'viewer' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    expect(JSON.stringify(again.body)).not.toMatch(/Alpha|Other Password/);
    // The team lists this account's users only.
    const team = await ownerOfA.request('GET', '/team/users');
    expect(team.body.data.users.filter((u: { email: string }) => u.email === who)).toHaveLength(1);

    const client = new ConsoleClient(gateway.url, from('198.51.100.101'));
    const choice = await client.signIn(who, PASSWORD);
    expect(choice.status).toBe(200);
    // Only the accounts whose user has this password, by name; nobody is signed in yet.
    expect(choice.body.data).toEqual({ accounts: [accountB, accountA] });
    expect(choice.headers.get('set-cookie')).toBeNull();
    expect((await client.request('GET', '/session')).status).toBe(401);

    const chosen = await client.request('POST', '/session', {
      body: { email: who, password: PASSWORD, account_id: accountB.id },
    });
    expect(chosen.status).toBe(200);
    // The session's account says whether it is a reseller (the console shows Clients to one).
    expect(chosen.body.data.account).toEqual({ ...accountB, reseller: false });
    expect((await client.request('GET', '/session')).body.data.account).toEqual({
      ...accountB,
      reseller: false,
    });

    // One account's password signs in to that account at once.
    const direct = await new ConsoleClient(gateway.url, from('198.51.100.102')).signIn(
      who,
      `${PASSWORD} of C`,
    );
    expect(direct.status).toBe(200);
    expect(direct.body.data.account).toEqual({ ...accountC, reseller: false });

    // An account whose user has another password, or no user of this email, answers as a wrong password.
    const unknown = await new ConsoleClient(gateway.url, from('198.51.100.103')).signIn(
      email('nobody'),
      PASSWORD,
    );
    for (const accountId of [accountC.id, stranger.id]) {
      const res = await new ConsoleClient(gateway.url, from('198.51.100.103')).request('POST', '/session', {
        body: { email: who, password: PASSWORD, account_id: accountId },
      });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe(unknown.body.error.message);
    }
    const notAnId = await client.request('POST', '/session', {
      body: { email: who, password: PASSWORD, account_id: 'acme' },
    });
    expect(notAnId.status).toBe(400);
    expect(notAnId.body.error.details[0].field).toBe('account_id');
  });

  it('answers 404 for a console file the build does not hold', async () => {
    for (const path of [
      `/console/app/${'x'.repeat(8000)}.js`,
      '/console/vendor/missing.js',
      '/console/app/',
    ]) {
      const res = await fetch(`${gateway.url}${path}`, { headers: from('198.51.100.95') });
      expect({ path: path.slice(0, 40), status: res.status }).toEqual({
        path: path.slice(0, 40),
        status: 404,
      });
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });
});
