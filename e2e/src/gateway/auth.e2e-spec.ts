import { api, createPartner } from '../../support';

const adminToken = () => process.env.E2E_ADMIN_TOKEN!;

async function setStatus(partnerId: string, status: string): Promise<void> {
  const res = await api(`/admin/v1/partners/${partnerId}`, {
    method: 'PATCH',
    key: adminToken(),
    body: { status },
  });
  expect(res.status).toBe(200);
}

describe('partner authentication', () => {
  let apiKey: string;
  let partnerId: string;

  beforeAll(async () => {
    ({
      apiKey,
      partner: { id: partnerId },
    } = await createPartner({ name: 'Auth Co' }));
  });

  it('accepts a valid key in the Authorization header', async () => {
    const res = await api('/api/v2/billing/balance', { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: expect.objectContaining({ currency: 'INR' }) });
  });

  it.each([
    ['no header', {}],
    ['a non-bearer scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    [
      'a key without the rg_live_ prefix',
      { authorization: 'Bearer sk_live_abcdefghijklmnopqrstuvwxyz0123456789ABCD' },
    ],
    ['an unknown well-formed key', { authorization: `Bearer rg_live_${'A'.repeat(40)}` }],
    ['a truncated key', { authorization: 'Bearer rg_live_short' }],
  ])('answers 401 UNAUTHORIZED for %s', async (_label, headers) => {
    const res = await api('/api/v2/billing/balance', { headers });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'UNAUTHORIZED', message: expect.any(String) },
    });
  });

  it('does not accept a key in the query string', async () => {
    const res = await api(`/api/v2/billing/balance?api_key=${apiKey}`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(res.body.error.message).toMatch(/Authorization header/);
  });

  it('does not accept a key in the body', async () => {
    const res = await api('/api/v2/customers', {
      method: 'POST',
      body: { api_key: apiKey, external_id: 'x', name: 'y' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/Authorization header/);
  });

  it('answers 401 for a key that differs from a real one in its secret part only', async () => {
    const tampered = apiKey.slice(0, -1) + (apiKey.endsWith('A') ? 'B' : 'A');
    const res = await api('/api/v2/billing/balance', { key: tampered });
    expect(res.status).toBe(401);
  });

  it('answers 403 FORBIDDEN while the partner is suspended, and works again once approved', async () => {
    await setStatus(partnerId, 'suspended');
    const suspended = await api('/api/v2/billing/balance', { key: apiKey });
    expect(suspended.status).toBe(403);
    expect(suspended.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/suspended/),
    });
    await setStatus(partnerId, 'approved');
    expect((await api('/api/v2/billing/balance', { key: apiKey })).status).toBe(200);
  });

  it('answers 403 FORBIDDEN for a partner not yet approved', async () => {
    const pending = await createPartner({ name: 'Pending Co', status: 'pending' });
    const res = await api('/api/v2/customers', { key: pending.apiKey });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/not yet approved/),
    });
  });

  it('stops accepting a revoked key at once and keeps the partner’s other keys working', async () => {
    const issued = await api(`/admin/v1/partners/${partnerId}/api-keys`, {
      method: 'POST',
      key: adminToken(),
      body: { name: 'ci' },
    });
    expect(issued.status).toBe(200);
    const second: string = issued.body.data.api_key;
    expect(second).toMatch(/^rg_live_[A-Za-z0-9_-]{40}$/);
    expect((await api('/api/v2/billing/balance', { key: second })).status).toBe(200);
    const revoked = await api(`/admin/v1/partners/${partnerId}/api-keys/${issued.body.data.key.id}`, {
      method: 'DELETE',
      key: adminToken(),
    });
    expect(revoked.status).toBe(200);
    expect((await api('/api/v2/billing/balance', { key: second })).status).toBe(401);
    expect((await api('/api/v2/billing/balance', { key: apiKey })).status).toBe(200);
  });

  it('never returns a full key after creation', async () => {
    const keys = await api(`/admin/v1/partners/${partnerId}/api-keys`, { key: adminToken() });
    expect(keys.status).toBe(200);
    expect(JSON.stringify(keys.body)).not.toContain(apiKey);
    for (const k of keys.body.data.api_keys) expect(k.prefix.length).toBeLessThan(apiKey.length);
  });

  it('reports another account’s resource as 404 NOT_FOUND', async () => {
    const other = await createPartner({ name: 'Other Co' });
    const created = await api('/api/v2/customers', {
      method: 'POST',
      key: other.apiKey,
      body: { external_id: 'theirs', name: 'Theirs' },
    });
    expect(created.status).toBe(200);
    const res = await api(`/api/v2/customers/${created.body.data.id}`, { key: apiKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const patch = await api(`/api/v2/customers/${created.body.data.id}`, {
      method: 'PATCH',
      key: apiKey,
      body: { name: 'Mine now' },
    });
    expect(patch.status).toBe(404);
  });

  it('keeps health probes and the API docs open without a key', async () => {
    expect((await api('/health/live')).status).toBe(200);
    expect((await api('/health/ready')).status).toBe(200);
    expect((await api('/api/v2/openapi.json')).status).toBe(200);
  });
});
