import { adminApi, api, createPartner } from '../../support';

const token = () => process.env.E2E_ADMIN_TOKEN!;

describe('operator API (/admin/v1)', () => {
  it.each([
    ['no token', undefined],
    ['a wrong token', 'definitely-not-the-token'],
  ])('answers 401 UNAUTHORIZED with %s', async (_l, t) => {
    const res = await api('/admin/v1/partners', { method: 'POST', key: t, body: { name: 'Nope' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('does not take a partner API key as the operator token', async () => {
    const created = await api('/admin/v1/partners', {
      method: 'POST',
      key: token(),
      body: { name: 'Key Holder' },
    });
    const res = await api('/admin/v1/partners', { key: created.body.data.api_key });
    expect(res.status).toBe(401);
  });

  it('creates a partner with defaults and a first key shown once', async () => {
    const res = await api('/admin/v1/partners', {
      method: 'POST',
      key: token(),
      body: { name: 'Defaults Co' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.partner).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Defaults Co',
      status: 'approved',
      balance_inr: 0,
      concurrency_limit: 5,
      voice_tier: 'standard',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      version: 1,
      reseller: false,
      reseller_id: null,
      price_per_minute_inr: null,
    });
    expect(res.body.data.api_key).toMatch(/^rg_live_/);
    expect(res.body.data.key.prefix).toBe(res.body.data.api_key.slice(0, res.body.data.key.prefix.length));
    const fetched = await api(`/admin/v1/partners/${res.body.data.partner.id}`, { key: token() });
    expect(JSON.stringify(fetched.body)).not.toContain(res.body.data.api_key);
  });

  it.each([
    [{}],
    [{ name: '' }],
    [{ name: 'x', balance_inr: -1 }],
    [{ name: 'x', balance_inr: 1.234 }],
    [{ name: 'x', concurrency_limit: 0 }],
    [{ name: 'x', status: 'active' }],
    [{ name: 'x', voice_tier: 'gold' }],
  ])('refuses %j with 400 VALIDATION_ERROR', async (body) => {
    const res = await api('/admin/v1/partners', { method: 'POST', key: token(), body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('funds a partner; the partner sees the balance in rupees', async () => {
    const created = await api('/admin/v1/partners', {
      method: 'POST',
      key: token(),
      body: { name: 'Funded', balance_inr: 100.5 },
    });
    const { partner, api_key } = created.body.data;
    expect((await api('/api/v2/billing/balance', { key: api_key })).body.data.balance_inr).toBe(100.5);
    const patched = await api(`/admin/v1/partners/${partner.id}`, {
      method: 'PATCH',
      key: token(),
      body: { balance_inr: 2500.25, concurrency_limit: 8, voice_tier: 'premium', name: 'Funded Ltd' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      balance_inr: 2500.25,
      concurrency_limit: 8,
      voice_tier: 'premium',
      name: 'Funded Ltd',
    });
    for (const field of ['name', 'balance_inr', 'concurrency_limit', 'status', 'voice_tier']) {
      const cleared = await api(`/admin/v1/partners/${partner.id}`, {
        method: 'PATCH',
        key: token(),
        body: { [field]: null },
      });
      expect({ field, status: cleared.status, code: cleared.body.error?.code }).toEqual({
        field,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    const balance = await api('/api/v2/billing/balance', { key: api_key });
    expect(balance.body.data).toEqual({
      balance_inr: 2500.25,
      currency: 'INR',
      updated_at: expect.any(String),
    });
  });

  it('answers 404 for an unknown or malformed partner id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await api(`/admin/v1/partners/${id}`, {
        method: 'PATCH',
        key: token(),
        body: { status: 'approved' },
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(
        (await api(`/admin/v1/partners/${id}/api-keys`, { method: 'POST', key: token(), body: {} })).status,
      ).toBe(404);
    }
  });

  it('lists partners', async () => {
    const res = await api('/admin/v1/partners', { key: token() });
    expect(res.status).toBe(200);
    expect(res.body.data.partners.length).toBeGreaterThan(0);
  });

  it('issues at most 20 active keys per account: one more is 429 LIMIT_REACHED until one is revoked', async () => {
    const { partner, apiKey } = await createPartner();
    const issue = () =>
      adminApi(`/partners/${partner.id}/api-keys`, { method: 'POST', body: { name: 'more' } });
    // The account's first key came with it: 19 more make 20.
    const issued = await Promise.all(Array.from({ length: 19 }, issue));
    expect(issued.map((r) => r.status)).toEqual(Array(19).fill(200));
    // Issued at once, they cannot slip past the count together.
    const over = await Promise.all([issue(), issue()]);
    for (const res of over) {
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({
        code: 'LIMIT_REACHED',
        message: expect.stringMatching(/20 active API keys.*revoke one first/),
      });
    }
    const listed = await adminApi(`/partners/${partner.id}/api-keys`);
    expect(listed.body.data.api_keys).toHaveLength(20);
    const revoked = await adminApi(`/partners/${partner.id}/api-keys/${issued[0].body.data.key.id}`, {
      method: 'DELETE',
    });
    expect(revoked.status).toBe(200);
    expect((await issue()).status).toBe(200);
    expect((await issue()).status).toBe(429);
    // The account's keys still work.
    expect((await api('/api/v2/billing/balance', { key: apiKey })).status).toBe(200);
  });
});
