// Publishable keys through the gateway: made with the account's key, they create browser sessions only for the
// agents they name, from the origins they list, within their per-key and per-origin limits and the account's
// own checks; everything else they are shown to answers 401 or 403 in the envelope.
import { WebSocket } from 'ws';
import { waitFor } from '@vap/testing';
import { api, gatewayUrl } from '../../support';
import { CallsPartner } from '../calls/call-fixtures';

const SITE = 'https://shop.example.test';
const OTHER_SITE = 'https://blog.example.test';
const THIRD_SITE = 'http://localhost:5173';

describe('publishable keys (POST /publishable-keys, POST /web/sessions)', () => {
  let partner: CallsPartner;
  let agent: { id: string };
  let otherAgent: { id: string };

  beforeAll(async () => {
    // Room for every session of the file in the account's own concurrency limit: the keys' limits are tested.
    partner = await CallsPartner.create({ concurrency_limit: 50 });
    agent = await partner.createAgent();
    otherAgent = await partner.createAgent();
  });

  async function makeKey(body: Record<string, unknown>, owner = partner) {
    const res = await api('/publishable-keys', { method: 'POST', key: owner.generalKey, body });
    expect(res.status).toBe(200);
    return res.body.data as { id: string; public_key: string; prefix: string };
  }

  const session = (key: string, origin: string | null, agentId: string) =>
    api('/web/sessions', {
      method: 'POST',
      key,
      body: { agent_id: agentId },
      headers: origin ? { origin } : {},
    });

  it('makes a key that names agents and origins, shown in full once and listed by its prefix', async () => {
    const noAgents = await api('/publishable-keys', {
      method: 'POST',
      key: partner.generalKey,
      body: { name: 'Site', agent_ids: [], allowed_origins: [SITE] },
    });
    expect(noAgents.status).toBe(400);
    expect(noAgents.body.error.code).toBe('VALIDATION_ERROR');
    const badOrigin = await api('/publishable-keys', {
      method: 'POST',
      key: partner.generalKey,
      body: { name: 'Site', agent_ids: [agent.id], allowed_origins: ['http://shop.example.test/path'] },
    });
    expect(badOrigin.status).toBe(400);
    const stranger = await CallsPartner.create();
    const theirs = await stranger.createAgent();
    const notOurs = await api('/publishable-keys', {
      method: 'POST',
      key: partner.generalKey,
      body: { name: 'Site', agent_ids: [theirs.id], allowed_origins: [SITE] },
    });
    expect(notOurs.status).toBe(404);
    expect(notOurs.body.error.code).toBe('NOT_FOUND');

    const made = await makeKey({ name: 'Site', agent_ids: [agent.id], allowed_origins: [SITE] });
    expect(made.public_key).toMatch(/^pk_live_[A-Za-z0-9_-]{40}$/);
    expect(made.public_key.startsWith(made.prefix)).toBe(true);
    expect(made).toMatchObject({
      agent_ids: [agent.id],
      allowed_origins: [SITE],
      sessions_per_minute: 20,
      origin_sessions_per_minute: 10,
      max_live_sessions: 10,
      origin_max_live_sessions: 5,
      revoked_at: null,
    });
    const listed = await api('/publishable-keys', { key: partner.generalKey });
    const row = listed.body.data.publishable_keys.find((k: { id: string }) => k.id === made.id);
    expect(row).toMatchObject({ prefix: made.prefix, name: 'Site' });
    expect(row).not.toHaveProperty('public_key');
  });

  it('creates a session from a listed origin for a named agent, bound to that origin, with CORS for it only', async () => {
    const key = await makeKey({ name: 'Shop', agent_ids: [agent.id], allowed_origins: [SITE, OTHER_SITE] });
    const res = await session(key.public_key, SITE, agent.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      agent_id: agent.id,
      status: 'pending',
      expires_at: expect.any(String),
      connect_url: expect.stringMatching(/\/browser\/.+\?token=/),
    });
    // The account sees it as any of its sessions, opened to the calling origin only and naming the key.
    const seen = await api(`/browser-sessions/${res.body.data.id}`, { key: partner.generalKey });
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({
      allowed_origins: [SITE],
      metadata: { publishable_key: key.prefix, origin: SITE },
    });
  });

  it('answers CORS preflights for listed origins only', async () => {
    await makeKey({ name: 'Preflight', agent_ids: [agent.id], allowed_origins: [SITE] });
    const ok = await api('/web/sessions', { method: 'OPTIONS', headers: { origin: SITE } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const refused = await api('/web/sessions', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.test' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
  });

  it('refuses another origin, no origin, another agent, a secret key, and the key anywhere else', async () => {
    const key = await makeKey({ name: 'Strict', agent_ids: [agent.id], allowed_origins: [SITE] });
    const wrongOrigin = await session(key.public_key, 'https://evil.example.test', agent.id);
    expect(wrongOrigin.status).toBe(403);
    expect(wrongOrigin.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/origin/),
    });
    expect(wrongOrigin.headers.get('access-control-allow-origin')).toBeNull();
    const noOrigin = await session(key.public_key, null, agent.id);
    expect(noOrigin.status).toBe(403);
    const wrongAgent = await session(key.public_key, SITE, otherAgent.id);
    expect(wrongAgent.status).toBe(403);
    expect(wrongAgent.body.error.message).toMatch(/agent/);
    const secret = await session(partner.generalKey, SITE, agent.id);
    expect(secret.status).toBe(401);
    expect(secret.body.error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/secret/),
    });
    const forged = await session(`${key.public_key.slice(0, -4)}AAAA`, SITE, agent.id);
    expect(forged.status).toBe(401);
    // The key opens nothing of the API.
    for (const path of ['/agent', '/browser-sessions', '/publishable-keys']) {
      const res = await api(path, { key: key.public_key, headers: { origin: SITE } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    }
    const browserSession = await api('/browser-sessions', {
      method: 'POST',
      key: key.public_key,
      body: { agent_id: agent.id, allowed_origins: [SITE] },
    });
    expect(browserSession.status).toBe(401);
  });

  it('limits sessions a minute per key and per origin (429 RATE_LIMITED with Retry-After)', async () => {
    const key = await makeKey({
      name: 'Rated',
      agent_ids: [agent.id],
      allowed_origins: [SITE, OTHER_SITE],
      sessions_per_minute: 3,
      origin_sessions_per_minute: 2,
    });
    expect((await session(key.public_key, SITE, agent.id)).status).toBe(200);
    expect((await session(key.public_key, SITE, agent.id)).status).toBe(200);
    const perOrigin = await session(key.public_key, SITE, agent.id);
    expect(perOrigin.status).toBe(429);
    expect(perOrigin.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/2 sessions a minute from https:\/\/shop/),
    });
    const wait = Number(perOrigin.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(perOrigin.headers.get('access-control-allow-origin')).toBe(SITE);
    expect((await session(key.public_key, OTHER_SITE, agent.id)).status).toBe(200);
    const perKey = await session(key.public_key, OTHER_SITE, agent.id);
    expect(perKey.status).toBe(429);
    expect(perKey.body.error.message).toMatch(/3 sessions a minute;/);
  });

  it('limits sessions pending or live at once per key and per origin, and frees a slot when a session ends', async () => {
    const key = await makeKey({
      name: 'Live',
      agent_ids: [agent.id],
      allowed_origins: [SITE, OTHER_SITE, THIRD_SITE],
      max_live_sessions: 2,
      origin_max_live_sessions: 1,
    });
    const first = await session(key.public_key, SITE, agent.id);
    expect(first.status).toBe(200);
    const sameOrigin = await session(key.public_key, SITE, agent.id);
    expect(sameOrigin.status).toBe(429);
    expect(sameOrigin.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/1 sessions pending or live from https:\/\/shop/),
    });
    expect(Number(sameOrigin.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await session(key.public_key, OTHER_SITE, agent.id)).status).toBe(200);
    const keyFull = await session(key.public_key, THIRD_SITE, agent.id);
    expect(keyFull.status).toBe(429);
    expect(keyFull.body.error.message).toMatch(/2 sessions pending or live, its most/);

    // The first session runs and ends (its page hangs up): its slot is free again.
    const ws = new WebSocket(first.body.data.connect_url, { origin: SITE });
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data, isBinary) => {
        if (!isBinary && (JSON.parse(String(data)) as { type: string }).type === 'session.started') resolve();
      });
      ws.on('close', (code, reason) => reject(new Error(`closed ${code} ${reason.toString()}`)));
      ws.on('error', reject);
    });
    ws.removeAllListeners('close');
    ws.close();
    await waitFor(
      async () => {
        const res = await api(`/browser-sessions/${first.body.data.id}`, { key: partner.generalKey });
        return ['completed', 'failed'].includes(res.body.data?.status) || undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the first session to end' },
    );
    expect((await session(key.public_key, THIRD_SITE, agent.id)).status).toBe(200);
  }, 60_000);

  it('lets no more than the limit through when sessions are asked for at once', async () => {
    const key = await makeKey({
      name: 'Burst',
      agent_ids: [agent.id],
      allowed_origins: [SITE],
      origin_max_live_sessions: 3,
    });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => session(key.public_key, SITE, agent.id)),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.body.error.code).toBe('RATE_LIMITED');
  });

  it('refuses a revoked key at once (401)', async () => {
    const key = await makeKey({ name: 'Revoked', agent_ids: [agent.id], allowed_origins: [SITE] });
    expect((await session(key.public_key, SITE, agent.id)).status).toBe(200);
    const revoked = await api(`/publishable-keys/${key.id}`, { method: 'DELETE', key: partner.generalKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toEqual(expect.any(String));
    const after = await session(key.public_key, SITE, agent.id);
    expect(after.status).toBe(401);
    expect(after.body.error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/revoked/),
    });
    const listed = await api('/publishable-keys', { key: partner.generalKey });
    expect(listed.body.data.publishable_keys.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it('applies the account’s balance check, as sessions made with a secret key do (403 FORBIDDEN)', async () => {
    const broke = await CallsPartner.create({ balance_inr: 0 });
    const brokeAgent = await broke.createAgent();
    const key = await makeKey({ name: 'Broke', agent_ids: [brokeAgent.id], allowed_origins: [SITE] }, broke);
    const res = await session(key.public_key, SITE, brokeAgent.id);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/balance/i) });
    // The page may read why: the origin is the key's.
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
  });

  it('serves the one-tag widget beside the client', async () => {
    const widget = await fetch(`${gatewayUrl()}/sdk/widget.js`);
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const text = await widget.text();
    expect(text).toContain('document.currentScript');
    expect(text).not.toMatch(/^export /m);
  });
});
