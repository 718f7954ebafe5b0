// The console's server side through the gateway: operator invitations, one-time links, cookie sessions, CSRF,
// roles, keys, the team, and the public API's routes served to the console under /console/api/v2.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { workspaceRoot } from '@vap/testing';
import { adminApi, api, createPartner, e2eEnv } from '../../support';
import { callee, VOICE_ID } from '../calls/call-fixtures';
import { ConsoleClient, inviteUser } from './console-fixtures';

const PASSWORD = 'a long enough passphrase';
const email = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;
const agentBody = {
  agent_name: 'Console agent',
  prompt: 'You help.',
  voice_id: VOICE_ID,
  agent_type: 'outbound',
};

describe('console API', () => {
  let partnerId: string;
  let apiKey: string;
  let owner: ConsoleClient;
  let ownerEmail: string;

  beforeAll(async () => {
    const created = await createPartner({ name: `Console API Co ${Date.now()}`, balance_inr: 100 });
    partnerId = created.partner.id;
    apiKey = created.apiKey;
    ownerEmail = email('owner');
    owner = new ConsoleClient();
  });

  it('lets an invited user set a password once through the link, and signs them in with a safe cookie', async () => {
    const link = await inviteUser(partnerId, { email: ownerEmail, name: 'Olive Owner', role: 'owner' });
    expect(link).toMatch(/\/console\/invitations\/cinv_[A-Za-z0-9_-]{43}$/);
    const token = link.split('/').pop()!;
    const info = await owner.request('GET', `/invitations/${token}`);
    expect(info.body.data).toMatchObject({ email: ownerEmail, role: 'owner', account: { id: partnerId } });

    const short = await owner.useLink(link, 'short');
    expect(short.status).toBe(400);
    expect(short.body.error.details[0].field).toBe('password');

    const accepted = await owner.useLink(link, PASSWORD);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.user).toMatchObject({ email: ownerEmail, role: 'owner', status: 'active' });
    const cookie = accepted.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^vap_console=cses_/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/console/i);

    // The link worked once.
    expect((await new ConsoleClient().useLink(link, PASSWORD)).status).toBe(404);
    expect((await owner.request('GET', `/invitations/${token}`)).status).toBe(404);
    const session = await owner.request('GET', '/session');
    expect(session.status).toBe(200);
    expect(session.body.data.csrf_token).toEqual(expect.any(String));
  });

  it('serves the public API under /console/api/v2 with the session, and only there', async () => {
    const listed = await owner.request('GET', '/v2/agent');
    expect(listed.status).toBe(200);
    expect(listed.body.data.agents).toEqual([]);
    // A key is never accepted by the console, nor a cookie by the public API.
    const withKey = await fetch(`${owner.baseUrl}/console/api/v2/agent`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(withKey.status).toBe(401);
    const withCookie = await api('/agent', { headers: { cookie: owner.cookie! } });
    expect(withCookie.status).toBe(401);

    const noCsrf = await owner.request('POST', '/v2/agent', { body: agentBody, csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe('FORBIDDEN');
    // Worded for the person at the page, never naming a header.
    expect(noCsrf.body.error.message).toMatch(/reload the page/i);
    expect(noCsrf.body.error.message).not.toMatch(/csrf|x-/i);
    const crossOrigin = await owner.request('POST', '/v2/agent', {
      body: agentBody,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossOrigin.status).toBe(403);
    const created = await owner.request('POST', '/v2/agent', { body: agentBody });
    expect(created.status).toBe(200);
    // The same agent through the partner's key: one account.
    expect((await api(`/agent/${created.body.data.id}`, { key: apiKey })).status).toBe(200);
    // Validation answers as on the public API.
    const invalid = await owner.request('POST', '/v2/agent', { body: { agent_name: '' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('VALIDATION_ERROR');
  });

  it("answers 404 for another account's call", async () => {
    const other = await createPartner({ name: `Other Console Co ${Date.now()}`, balance_inr: 100 });
    const agent = await api('/agent', { method: 'POST', key: other.apiKey, body: agentBody });
    const call = await api('/calls/start', {
      method: 'POST',
      key: other.apiKey,
      body: { agent_id: agent.body.data.id, to_number: callee('01') },
    });
    expect(call.status).toBe(200);
    const seen = await owner.request('GET', `/v2/calls/${call.body.data.call_id}`);
    expect(seen.status).toBe(404);
    expect(seen.body.error.code).toBe('NOT_FOUND');
  });

  it('creates a key shown once, lists it without its secret, and revokes it at once', async () => {
    const created = await owner.request('POST', '/keys', { body: { name: 'from the console' } });
    expect(created.status).toBe(200);
    const secret = created.body.data.api_key as string;
    expect(secret).toMatch(/^rg_live_/);
    expect((await api('/billing/balance', { key: secret })).status).toBe(200);
    const listed = await owner.request('GET', '/keys');
    const row = listed.body.data.keys.find((k: { id: string }) => k.id === created.body.data.key.id);
    expect(row).toMatchObject({
      name: 'from the console',
      prefix: secret.slice(0, row.prefix.length),
      created_by: { kind: 'user', name: 'Olive Owner' },
    });
    // The key the operator made when the account was opened says so.
    const opening = listed.body.data.keys.find((k: { name: string }) => k.name === 'default');
    expect(opening.created_by).toEqual({ kind: 'operator', name: null });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect((await owner.request('DELETE', `/keys/${row.id}`)).status).toBe(200);
    expect((await api('/billing/balance', { key: secret })).status).toBe(401);
  });

  it('creates a key limited to scopes from the console', async () => {
    const catalogue = await owner.request('GET', '/keys/scopes');
    expect(catalogue.body.data.scopes.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['agents:read', 'calls:write', 'read_only']),
    );
    const unknown = await owner.request('POST', '/keys', { body: { name: 'bad', scopes: ['everything'] } });
    expect(unknown.status).toBe(400);
    const created = await owner.request('POST', '/keys', { body: { name: 'reader', scopes: ['read_only'] } });
    expect(created.status).toBe(200);
    expect(created.body.data.key.scopes).toEqual(['read_only']);
    const key = created.body.data.api_key as string;
    expect((await api('/agent', { key })).status).toBe(200);
    const refused = await api('/agent', { method: 'POST', key, body: agentBody });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('agents:write');
  });

  it('gives a viewer read access only, and keys and the team to owners and admins', async () => {
    const invited = await owner.request('POST', '/team/invitations', {
      body: { email: email('viewer'), name: 'Vic Viewer', role: 'viewer' },
    });
    expect(invited.status).toBe(200);
    const viewer = new ConsoleClient();
    expect((await viewer.useLink(invited.body.data.invitation_url, PASSWORD)).status).toBe(200);
    expect((await viewer.request('GET', '/v2/agent')).status).toBe(200);
    expect((await viewer.request('GET', '/keys')).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/v2/agent', agentBody],
      ['POST', '/keys', { name: 'nope' }],
      ['POST', '/team/invitations', { email: email('x'), name: 'X', role: 'viewer' }],
    ] as const) {
      const refused = await viewer.request(method, path, { body });
      expect({ path, status: refused.status, code: refused.body.error.code }).toEqual({
        path,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
    // An admin may not make owners; the last owner stays one.
    const me = (await owner.request('GET', '/session')).body.data.user.id;
    const demote = await owner.request('PATCH', `/team/users/${me}`, { body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('INVALID_STATE');
    // Removing the viewer ends their session at once.
    const viewerId = invited.body.data.user.id;
    expect((await owner.request('DELETE', `/team/users/${viewerId}`)).status).toBe(200);
    expect((await viewer.request('GET', '/v2/agent')).status).toBe(401);
  });

  it('locks out an email from an address after repeated wrong passwords, answering the same for an unknown email', async () => {
    const stranger = new ConsoleClient();
    const unknown = await stranger.signIn(email('nobody'), PASSWORD);
    const wrong = await stranger.signIn(ownerEmail, 'not the password at all');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
    for (let i = 0; i < 4; i++) await stranger.signIn(ownerEmail, 'not the password at all');
    const locked = await stranger.signIn(ownerEmail, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('RATE_LIMITED');
  });

  it('signs out, and a reset link from the operator ends every other session', async () => {
    const second = new ConsoleClient();
    const invited = await owner.request('POST', '/team/invitations', {
      body: { email: email('dev'), name: 'Dev', role: 'developer' },
    });
    expect((await second.useLink(invited.body.data.invitation_url, PASSWORD)).status).toBe(200);
    const userId = invited.body.data.user.id;
    const reset = await adminApi(`/partners/${partnerId}/users/${userId}/password-reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    const third = new ConsoleClient();
    expect((await third.useLink(reset.body.data.reset_url, `${PASSWORD} anew`)).status).toBe(200);
    expect((await second.request('GET', '/session')).status).toBe(401);
    expect((await third.request('DELETE', '/session')).status).toBe(200);
    expect((await third.request('GET', '/session')).status).toBe(401);
  });

  it('invites a user and issues a reset link from the operator CLI', async () => {
    const cli = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        [join(workspaceRoot(), 'dist/tools/tools/admin/admin-cli.js'), ...args],
        {
          env: { ...process.env, GATEWAY_URL: e2eEnv().gatewayUrl, ADMIN_API_TOKEN: e2eEnv().adminToken },
        },
      );
    const who = email('cli');
    const invited = JSON.parse(
      (await cli('invite-user', partnerId, '--email', who, '--name', 'Cli User', '--role', 'developer'))
        .stdout,
    );
    const client = new ConsoleClient();
    expect((await client.useLink(invited.invitation_url, PASSWORD)).status).toBe(200);
    const users = JSON.parse((await cli('list-users', partnerId)).stdout).users as {
      email: string;
      id: string;
    }[];
    const user = users.find((u) => u.email === who)!;
    const reset = JSON.parse((await cli('reset-password', partnerId, user.id)).stdout);
    expect(reset.reset_url).toMatch(/\/console\/password-resets\/crst_/);
    expect((await new ConsoleClient().useLink(reset.reset_url, `${PASSWORD} again`)).status).toBe(200);
  });
});
