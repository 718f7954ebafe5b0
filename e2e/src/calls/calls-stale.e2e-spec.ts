import { randomBytes } from 'node:crypto';
import { api, OwnPlatform, startOwnPlatform } from '../../support';
import { callee, VOICE_ID } from './call-fixtures';

/**
 * A platform of its own (the gateway is ready only with every service) whose sandbox carrier is too slow to ever finish a call (one step a minute) and
 * whose sweeper looks every half second with no grace: the call must still end, failed, once it has
 * outlived its agent's max_call_duration_secs.
 */
describe('calls that never get a final carrier status', () => {
  let own: OwnPlatform;
  const adminToken = randomBytes(16).toString('hex');
  let base: string;

  beforeAll(async () => {
    own = await startOwnPlatform({
      name: 'stale',
      env: {
        ADMIN_API_TOKEN: adminToken,
        SANDBOX_STEP_MS: '60000',
        STALE_CALL_SWEEP_MS: '500',
        STALE_CALL_GRACE_SECS: '0',
      },
    });
    base = own.platform.gatewayUrl;
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
  });

  it('fails the call after its max duration, releasing the slot and reporting the session', async () => {
    const created = await api('/admin/v1/partners', {
      method: 'POST',
      token: adminToken,
      baseUrl: base,
      body: { name: 'Stale Co', balance_inr: 100 },
    });
    const key = created.body.data.api_key;
    const agent = await api('/agent', {
      method: 'POST',
      key,
      baseUrl: base,
      body: {
        agent_name: 'Stale agent',
        prompt: 'You help.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
        max_call_duration_secs: 60,
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
    const deadline = Date.now() + 100_000;
    let call = started.body.data;
    while (!call.session.processing_complete && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 2000));
      call = (await api(`/calls/${id}`, { key, baseUrl: base })).body.data;
    }
    expect(call).toMatchObject({
      status: 'failed',
      disposition: 'failed',
      hangup_source: 'system',
      hangup_cause: 'NO_FINAL_STATUS',
      error_message: 'The carrier reported no final status in time',
      duration_seconds: 0,
    });
    expect(Date.parse(call.ended_at) - Date.parse(call.created_at)).toBeGreaterThanOrEqual(60_000);
    expect(call.session).toMatchObject({ processing_complete: true, status: 'failed', transcript: null });
  }, 150_000);
});
