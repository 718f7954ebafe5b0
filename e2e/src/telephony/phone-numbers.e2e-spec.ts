import { api, createPartner } from '../../support';
import { createTestAgent } from './telephony-fixtures';

const PN_ID = /^pn_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('phone numbers', () => {
  let key: string;
  let otherKey: string;
  let connectionId: string;

  beforeAll(async () => {
    ({ apiKey: key } = await createPartner({ name: 'Numbers Co' }));
    ({ apiKey: otherKey } = await createPartner({ name: 'Numbers Other Co' }));
    const put = await api('/config/telephony/carrier_b', {
      method: 'PUT',
      key,
      body: {
        account_sid: 'ACnumbers0000000000000000000000001',
        auth_token: 'numbers-token-00000000',
        from_number: '+14155550200',
      },
    });
    expect(put.status).toBe(200);
    const connections = (await api('/config/telephony', { key })).body.data.connections;
    connectionId = connections.find((c: { provider: string }) => c.provider === 'carrier_b').id;
  });

  const importNumber = (body: unknown, k = key) => api('/phone-numbers', { method: 'POST', key: k, body });

  it('imports a number on a provider and returns it', async () => {
    const res = await importNumber({ number: '+14155550201', provider: 'carrier_b', label: 'Support' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(PN_ID),
      number: '+14155550201',
      provider: 'carrier_b',
      connection_id: connectionId,
      label: 'Support',
      agent_id: null,
      application_id: null,
      is_default: false,
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await api(`/phone-numbers/${res.body.data.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(res.body.data);
  });

  it('imports by connection_id', async () => {
    const res = await importNumber({ number: '+14155550202', connection_id: connectionId });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ provider: 'carrier_b', connection_id: connectionId, label: null });
  });

  it.each([
    ['a number that is not E.164', { number: '4155550203', provider: 'carrier_b' }, 'number'],
    ['no provider and no connection', { number: '+14155550203' }, 'provider'],
    ['an unknown provider', { number: '+14155550203', provider: 'carrier_z' }, 'provider'],
    ['a provider without a connection', { number: '+14155550203', provider: 'carrier_a' }, 'provider'],
    [
      'a provider that contradicts the connection',
      { number: '+14155550203', provider: 'carrier_a', connection_id: '' },
      'connection_id',
    ],
  ])('refuses %s with 400 VALIDATION_ERROR', async (_label, body, field) => {
    const payload = { ...body } as Record<string, unknown>;
    if (payload.connection_id === '') payload.connection_id = connectionId;
    const res = await importNumber(payload);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(field === 'connection_id' ? 'provider' : field);
  });

  it('refuses a number already on the account with 409 CONFLICT', async () => {
    const res = await importNumber({ number: '+14155550201', provider: 'carrier_b' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('answers 404 for an unknown or foreign connection_id and agent_id', async () => {
    const foreign = await importNumber({ number: '+14155550209', connection_id: connectionId }, otherKey);
    expect(foreign.status).toBe(404);
    const agent = await importNumber({
      number: '+14155550209',
      provider: 'carrier_b',
      agent_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(agent.status).toBe(404);
  });

  it('lists the account’s numbers with cursor pagination and a provider filter', async () => {
    const first = await api('/phone-numbers?limit=2', { key });
    expect(first.status).toBe(200);
    expect(first.body.data.phone_numbers).toHaveLength(2);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await api(`/phone-numbers?limit=2&cursor=${first.body.data.next_cursor}`, { key });
    const all = [...first.body.data.phone_numbers, ...second.body.data.phone_numbers].map(
      (n: { number: string }) => n.number,
    );
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(expect.arrayContaining(['+14155550200', '+14155550201', '+14155550202']));
    const filtered = await api('/phone-numbers?provider=carrier_a', { key });
    expect(filtered.body.data.phone_numbers).toEqual([]);
    const other = await api('/phone-numbers', { key: otherKey });
    expect(other.body.data.phone_numbers.map((n: { number: string }) => n.number)).not.toContain(
      '+14155550201',
    );
  });

  it('deletes a number; another account’s number is 404 and stays', async () => {
    const created = await importNumber({ number: '+14155550204', provider: 'carrier_b' });
    const id = created.body.data.id;
    expect((await api(`/phone-numbers/${id}`, { key: otherKey })).status).toBe(404);
    expect((await api(`/phone-numbers/${id}`, { method: 'DELETE', key: otherKey })).status).toBe(404);
    const res = await api(`/phone-numbers/${id}`, { method: 'DELETE', key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id, deleted: true, detached: null, message: expect.any(String) });
    expect((await api(`/phone-numbers/${id}`, { key })).status).toBe(404);
    expect((await api(`/phone-numbers/${id}`, { method: 'DELETE', key })).status).toBe(404);
  });

  it('refuses to delete a carrier connection’s from-number with 409 DEFAULT_FROM_NUMBER', async () => {
    const list = await api('/phone-numbers?provider=carrier_b&limit=100', { key });
    const from = list.body.data.phone_numbers.find((n: { number: string }) => n.number === '+14155550200');
    const res = await api(`/phone-numbers/${from.id}`, { method: 'DELETE', key });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('DEFAULT_FROM_NUMBER');
    expect((await api(`/phone-numbers/${from.id}`, { key })).status).toBe(200);
  });

  it('shows the account’s sandbox default from-number from the start and refuses to delete it', async () => {
    const { apiKey } = await createPartner({ name: 'Numbers Fresh Co' });
    const list = await api('/phone-numbers', { key: apiKey });
    expect(list.status).toBe(200);
    const defaults = list.body.data.phone_numbers.filter((n: { is_default: boolean }) => n.is_default);
    expect(defaults).toEqual([
      expect.objectContaining({
        provider: 'sandbox',
        status: 'active',
        number: expect.stringMatching(/^\+1555\d{7}$/),
      }),
    ]);
    const res = await api(`/phone-numbers/${defaults[0].id}`, { method: 'DELETE', key: apiKey });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'DEFAULT_FROM_NUMBER',
      message: expect.stringContaining('default from-number'),
      request_id: expect.any(String),
    });
    const connections = (await api('/config/telephony', { key: apiKey })).body.data.connections;
    expect(connections).toEqual([
      expect.objectContaining({
        provider: 'sandbox',
        account_id_masked: null,
        from_number: defaults[0].number,
        inbound_webhook_url: null,
        status: 'active',
      }),
    ]);
  });

  it('updates the label and the inbound agent; 404 for another account’s number or an unknown agent', async () => {
    const agent = await createTestAgent(key, { agent_type: 'inbound' });
    const id = (await importNumber({ number: '+14155550205', provider: 'carrier_b' })).body.data.id;
    const patch = (body: unknown, k = key) => api(`/phone-numbers/${id}`, { method: 'PATCH', key: k, body });
    const res = await patch({ label: 'Sales', agent_id: agent.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, label: 'Sales', agent_id: agent.id, number: '+14155550205' });
    expect((await patch({ agent_id: null })).body.data).toMatchObject({ label: 'Sales', agent_id: null });
    expect((await patch({ agent_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await patch({ label: 'Theirs' }, otherKey)).status).toBe(404);
    for (const body of [{ agent_id: 'x' }, { number: '+14155550206' }, { label: 'l'.repeat(101) }]) {
      const bad = await patch(body);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await api(`/phone-numbers/${id}`, { key })).body.data).toMatchObject({
      label: 'Sales',
      agent_id: null,
    });
  });
});
