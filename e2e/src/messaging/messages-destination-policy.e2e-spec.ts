// The SMS destination policy through the gateway as a partner meets it: by default premium and satellite
// numbers, fraud-flagged ranges and countries outside the account's own and the platform's list are refused with
// their documented codes and nothing is stored; a country the account adds is texted; the daily cap refuses the
// message past it; another account's policy is its own.
import { api, createPartner } from '../../support';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const GERMANY = '+4915123456789';

describe('the SMS destination policy', () => {
  let key: string;

  beforeAll(async () => {
    ({ apiKey: key } = await createPartner({ balance_inr: 100 }));
  });

  const send = (to: string, k = key) =>
    api('/messages', { key: k, body: { to, body: 'Your code is 4821.' } });
  const policy = (k = key) => api('/messages/policy', { key: k });
  const patch = (body: Record<string, unknown>, k = key) =>
    api('/messages/policy', { method: 'PATCH', key: k, body });
  const outbound = async (k = key) =>
    ((await api('/messages?direction=outbound', { key: k })).body.data.messages as Any[]).map((m) => m.to);

  it('answers the default policy: the sandbox number’s country and the platform’s list', async () => {
    const res = await policy();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      allowed_countries: null,
      default_allowed_countries: ['IN', 'US'],
      max_per_day: expect.any(Number),
      max_per_day_limit: expect.any(Number),
      max_per_call: 3,
      max_per_call_limit: 3,
      sent_last_24_hours: 0,
      blocked_prefixes: expect.arrayContaining(['+1900', '+882']),
      high_risk_prefixes: expect.arrayContaining(['+53', '+37259']),
      updated_at: null,
    });
  });

  it.each([
    ['a US premium-rate number', '+19005551234', 'SMS_DESTINATION_BLOCKED'],
    ['an international network number', '+882123456789', 'SMS_DESTINATION_BLOCKED'],
    ['a number in a fraud-flagged range', '+5351234567', 'SMS_DESTINATION_BLOCKED'],
    ['a number of an unlisted country', GERMANY, 'SMS_COUNTRY_NOT_ALLOWED'],
  ])('refuses %s by default with 403 %s, storing nothing', async (_what, to, code) => {
    const res = await send(to);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, error: { code, message: expect.stringContaining(to) } });
    expect(await outbound()).not.toContain(to);
  });

  it('texts a country once the account lists it, never a premium number, and the fraud-flagged one only by name', async () => {
    const { apiKey } = await createPartner({ balance_inr: 100 });
    const changed = await patch({ allowed_countries: ['DE', 'US'] }, apiKey);
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      allowed_countries: ['DE', 'US'],
      updated_at: expect.any(String),
    });
    expect((await send(GERMANY, apiKey)).status).toBe(202);
    expect((await send('+19005551234', apiKey)).body.error.code).toBe('SMS_DESTINATION_BLOCKED');
    // The account's list replaces the default: India is no longer in it.
    expect((await send('+919876543210', apiKey)).body.error.code).toBe('SMS_COUNTRY_NOT_ALLOWED');
    expect((await send('+5351234567', apiKey)).body.error.code).toBe('SMS_DESTINATION_BLOCKED');
    await patch({ allowed_countries: ['CU', 'DE', 'US'] }, apiKey);
    expect((await send('+5351234567', apiKey)).status).toBe(202);
    // The first account's default is untouched.
    expect((await send(GERMANY)).body.error.code).toBe('SMS_COUNTRY_NOT_ALLOWED');
  });

  it('refuses the message past the daily cap with 429 SMS_LIMIT_REACHED and when one more may go', async () => {
    const { apiKey } = await createPartner({ balance_inr: 100 });
    expect((await patch({ max_per_day: 2 }, apiKey)).status).toBe(200);
    expect((await send('+15550004601', apiKey)).status).toBe(202);
    expect((await send('+15550004602', apiKey)).status).toBe(202);
    const refused = await send('+15550004603', apiKey);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('SMS_LIMIT_REACHED');
    expect(Date.parse(refused.body.error.retry_at)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(await outbound(apiKey)).not.toContain('+15550004603');
    expect((await policy(apiKey)).body.data).toMatchObject({ max_per_day: 2, sent_last_24_hours: 2 });
  });

  it('refuses a country the platform does not know and a cap above its limit', async () => {
    const unknown = await patch({ allowed_countries: ['XX'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    const lower = await patch({ allowed_countries: ['de'] });
    expect(lower.status).toBe(400);
    const limit = (await policy()).body.data.max_per_day_limit as number;
    expect((await patch({ max_per_day: limit + 1 })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await patch({ max_per_call: 4 })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await policy()).body.data.updated_at).toBeNull();
  });
});
