import { api, e2eEnv, OwnPlatform, startOwnPlatform } from '../../support';

const ORIGIN = 'https://app.example.test';

/**
 * A pending session not connected before its token lapses expires, costs nothing and frees its concurrency
 * slot. BROWSER_SESSION_TOKEN_TTL_MS is shortened to 2 s on a platform of this spec's own.
 */
describe('browser session expiry', () => {
  let own: OwnPlatform;

  beforeAll(async () => {
    own = await startOwnPlatform({
      name: 'browser_expiry',
      services: ['agents', 'calls'],
      readyPath: '/health/live',
      env: { BROWSER_SESSION_TOKEN_TTL_MS: '2000' },
    });
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
  });

  it('expires a pending session after the TTL, without a charge, and frees its slot', async () => {
    const baseUrl = own.platform.gatewayUrl;
    const created = await api('/admin/v1/partners', {
      key: e2eEnv().adminToken,
      baseUrl,
      body: { name: 'Expiring Co', balance_inr: 100, concurrency_limit: 1 },
    });
    expect(created.status).toBe(200);
    const key = created.body.data.api_key as string;
    const agent = await api('/agent', {
      key,
      baseUrl,
      body: {
        agent_name: 'Web helper',
        prompt: 'Be brief.',
        voice_id: '72158370-d269-49a5-ae65-8f33fe3b890b',
        agent_type: 'outbound',
        intro_message: 'Hello.',
      },
    });
    expect(agent.status).toBe(200);
    const body = { agent_id: agent.body.data.id, allowed_origins: [ORIGIN] };
    const session = await api('/browser-sessions', { key, baseUrl, body });
    expect(session.status).toBe(200);
    const id = session.body.data.id as string;
    const ttl = Date.parse(session.body.data.expires_at) - Date.parse(session.body.data.created_at);
    expect(ttl).toBeGreaterThan(1500);
    expect(ttl).toBeLessThan(2500);
    // The one slot is taken while it is pending.
    expect((await api('/browser-sessions', { key, baseUrl, body })).status).toBe(429);

    const deadline = Date.now() + 20_000;
    let found = session.body.data;
    while (found.status === 'pending' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      found = (await api(`/browser-sessions/${id}`, { key, baseUrl })).body.data;
    }
    expect(found).toMatchObject({
      status: 'expired',
      end_reason: 'browser_session_expired',
      started_at: null,
      credits_used: 0,
      duration_secs: 0,
    });
    expect(found.ended_at).not.toBeNull();
    const listed = await api('/browser-sessions?status=expired', { key, baseUrl });
    expect(listed.body.data.browser_sessions.map((s: { id: string }) => s.id)).toEqual([id]);
    // The slot is free again.
    expect((await api('/browser-sessions', { key, baseUrl, body })).status).toBe(200);
  }, 60_000);
});
