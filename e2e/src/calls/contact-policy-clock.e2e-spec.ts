import { randomInt } from 'node:crypto';
import { api, CALL_SERVICES, OwnPlatform, startOwnPlatform } from '../../support';
import { VOICE_ID } from './call-fixtures';

/** 01:55 in New York on the day its clocks jump from 02:00 EST to 03:00 EDT (07:00Z); a Sunday. */
const CLOCK_START = '2027-03-14T06:55:00Z';

const digits = (n: number) => String(randomInt(0, 10 ** n)).padStart(n, '0');

/**
 * A platform of its own whose contact policy clock starts just before a DST change (CONTACT_POLICY_CLOCK_START),
 * so calling windows are judged across the change through the gateway, in several zones at the same instant.
 */
describe('calling windows across a DST change and a day boundary', () => {
  let own: OwnPlatform;
  let base: string;
  let key: string;
  let agentId: string;

  beforeAll(async () => {
    own = await startOwnPlatform({
      name: 'policy_clock',
      services: [...CALL_SERVICES, 'sandbox-carrier'],
      env: { CONTACT_POLICY_CLOCK_START: CLOCK_START },
    });
    base = own.platform.gatewayUrl;
    const created = await api('/admin/v1/partners', {
      method: 'POST',
      baseUrl: base,
      token: own.platform.env.ADMIN_API_TOKEN,
      body: { name: 'Clock Co', balance_inr: 100, concurrency_limit: 5 },
    });
    key = created.body.data.api_key;
    const agent = await api('/agent', {
      method: 'POST',
      key,
      baseUrl: base,
      body: { agent_name: 'Clock agent', prompt: 'You help.', voice_id: VOICE_ID, agent_type: 'outbound' },
    });
    agentId = agent.body.data.id;
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
  });

  const window = (w: Record<string, unknown>) =>
    api('/contact-policy/settings', {
      method: 'PATCH',
      key,
      baseUrl: base,
      body: { calling_window: w, windows_apply_to_single_calls: true },
    });
  const start = (to_number: string) =>
    api('/calls/start', { method: 'POST', key, baseUrl: base, body: { agent_id: agentId, to_number } });

  it('opens a window that starts inside the skipped hour at the jump, and an 08:00 window at 08:00 EDT', async () => {
    const newYork = `+1212555${digits(2)}77`;
    expect((await window({ start: '02:30', end: '21:00', timezone: 'UTC' })).status).toBe(200);
    const inGap = await start(newYork);
    expect(inGap.status).toBe(409);
    // 02:30 does not exist that day: the window opens when the clock jumps to 03:00 EDT, 07:00Z.
    expect(inGap.body.error).toMatchObject({
      code: 'OUTSIDE_CALLING_WINDOW',
      retry_at: '2027-03-14T07:00:00.000Z',
    });
    expect(inGap.body.error.message).toContain('Sun 2027-03-14 01:5');

    expect((await window({ preset: 'US' })).status).toBe(200);
    const early = await start(newYork);
    // 08:00 EDT is 12:00Z; on the day before, 08:00 EST was 13:00Z.
    expect(early.body.error).toMatchObject({
      code: 'OUTSIDE_CALLING_WINDOW',
      retry_at: '2027-03-14T12:00:00.000Z',
    });
  });

  it('judges each callee by their own zone at the same instant', async () => {
    expect(
      (
        await window({
          days: ['mon', 'tue', 'wed', 'thu', 'fri'],
          start: '08:00',
          end: '19:00',
          timezone: 'UTC',
        })
      ).status,
    ).toBe(200);
    // New Zealand: 19:55 on Sunday evening; the next weekday opening is Monday 08:00 NZDT, 19:00Z.
    const auckland = await start(`+6421${digits(5)}77`);
    expect(auckland.body.error).toMatchObject({
      code: 'OUTSIDE_CALLING_WINDOW',
      retry_at: '2027-03-14T19:00:00.000Z',
    });
    // London: 06:55 on Sunday; Monday 08:00 GMT.
    const london = await start(`+4420${digits(6)}77`);
    expect(london.body.error.retry_at).toBe('2027-03-15T08:00:00.000Z');

    // India: 12:25 on Sunday, inside an every-day 09:00-21:00 window.
    expect((await window({ preset: 'IN' })).status).toBe(200);
    const india = await start(`+9198${digits(6)}77`);
    expect(india.status).toBe(200);
  });
});
