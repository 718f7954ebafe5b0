import { Client } from 'pg';
import { api, createPartner, e2eEnv } from '../../support';

const A_ID = 'MAZDQ1ZJIYMDY0ZTLHZT';
const A_TOKEN = 'carrier-a-token-0123456789abcdef';
const B_SID = 'AC0123456789abcdef0123456789abcdef';
const B_TOKEN = 'carrier-b-token-fedcba9876543210';

async function sealedRows(partnerId: string): Promise<string[]> {
  const db = new Client({ connectionString: e2eEnv().databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ row: string }>(
      `SELECT row_to_json(c)::text AS row FROM calls.connection_credentials c WHERE partner_id = $1`,
      [partnerId],
    );
    return rows.map((r) => r.row);
  } finally {
    await db.end();
  }
}

describe('telephony credentials', () => {
  let key: string;
  let partnerId: string;
  let otherKey: string;

  beforeAll(async () => {
    ({
      apiKey: key,
      partner: { id: partnerId },
    } = await createPartner({ name: 'Telephony Co' }));
    ({ apiKey: otherKey } = await createPartner({ name: 'Telephony Other Co' }));
  });

  const put = (provider: string, body: unknown, k = key) =>
    api(`/config/telephony/${provider}`, { method: 'PUT', key: k, body });

  describe('PUT /config/telephony/carrier_a', () => {
    it('stores the credentials and answers with the auth_id masked', async () => {
      const res = await put('carrier_a', {
        auth_id: A_ID,
        auth_token: A_TOKEN,
        from_number: '+919876500001',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { auth_id: 'MAZD************LHZT', from_number: '+919876500001', message: expect.any(String) },
      });
      expect(JSON.stringify(res.body)).not.toContain(A_TOKEN);
    });

    it.each([
      ['auth_id', { auth_token: A_TOKEN, from_number: '+919876500001' }],
      ['auth_token', { auth_id: A_ID, from_number: '+919876500001' }],
      ['from_number', { auth_id: A_ID, auth_token: A_TOKEN }],
    ])('answers 400 VALIDATION_ERROR naming a missing %s', async (field, body) => {
      const res = await put('carrier_a', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain(field);
    });

    it.each([
      ['not E.164', { auth_id: A_ID, auth_token: A_TOKEN, from_number: '9876500001' }],
      ['an empty auth_id', { auth_id: '', auth_token: A_TOKEN, from_number: '+919876500001' }],
      ['an extra field', { auth_id: A_ID, auth_token: A_TOKEN, from_number: '+919876500001', region: 'x' }],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, body) => {
      const res = await put('carrier_a', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('PUT /config/telephony/carrier_b', () => {
    it('stores the credentials and answers with the account_sid masked', async () => {
      const res = await put('carrier_b', {
        account_sid: B_SID,
        auth_token: B_TOKEN,
        from_number: '+14155550100',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        account_sid: 'AC01**************************cdef',
        from_number: '+14155550100',
        message: expect.any(String),
      });
    });

    it.each(['account_sid', 'auth_token', 'from_number'])(
      'answers 400 naming a missing %s',
      async (field) => {
        const body: Record<string, string> = {
          account_sid: B_SID,
          auth_token: B_TOKEN,
          from_number: '+14155550100',
        };
        delete body[field];
        const res = await put('carrier_b', body);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.message).toContain(field);
      },
    );
  });

  describe('GET /config/telephony', () => {
    it('lists the connections masked, with their from-numbers', async () => {
      const res = await api('/config/telephony', { key });
      expect(res.status).toBe(200);
      const byProvider = Object.fromEntries(
        (res.body.data.connections as { provider: string }[]).map((c) => [c.provider, c]),
      );
      expect(byProvider.carrier_a).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        provider: 'carrier_a',
        account_id_masked: 'MAZD************LHZT',
        from_number: '+919876500001',
        api_base_url: null,
        label: null,
        inbound_webhook_url: expect.stringMatching(
          new RegExp(`/callbacks/inbound/carrier_a/${'[0-9a-f-]{36}'}/voice$`),
        ),
        inbound_sms_url: expect.stringMatching(
          new RegExp(`/callbacks/inbound/carrier_a/${'[0-9a-f-]{36}'}/sms$`),
        ),
        status: 'active',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(byProvider.carrier_b).toMatchObject({
        account_id_masked: 'AC01**************************cdef',
        from_number: '+14155550100',
      });
      const text = JSON.stringify(res.body);
      for (const secret of [A_TOKEN, B_TOKEN, A_ID, B_SID]) expect(text).not.toContain(secret);
    });

    it('shows another account nothing of these connections', async () => {
      const res = await api('/config/telephony', { key: otherKey });
      expect(res.status).toBe(200);
      expect(
        (res.body.data.connections as { provider: string }[]).filter((c) => c.provider.startsWith('carrier')),
      ).toEqual([]);
    });
  });

  it('replaces the credentials in place: same connection, new from-number, both numbers on the account', async () => {
    const before = (await api('/config/telephony', { key })).body.data.connections.find(
      (c: { provider: string }) => c.provider === 'carrier_a',
    );
    const res = await put('carrier_a', {
      auth_id: 'MANEWACCOUNT00000001',
      auth_token: 'new-token-000000000000',
      from_number: '+919876500002',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.auth_id).toBe('MANE************0001');
    const after = (await api('/config/telephony', { key })).body.data.connections.filter(
      (c: { provider: string }) => c.provider === 'carrier_a',
    );
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      id: before.id,
      from_number: '+919876500002',
      account_id_masked: 'MANE************0001',
    });
    const numbers = (await api('/phone-numbers?provider=carrier_a', { key })).body.data.phone_numbers.map(
      (n: { number: string }) => n.number,
    );
    expect(numbers).toEqual(expect.arrayContaining(['+919876500001', '+919876500002']));
  });

  it('stores the credentials encrypted: no plaintext token or account id in the database', async () => {
    const rows = await sealedRows(partnerId);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const text = rows.join('\n');
    for (const secret of ['new-token-000000000000', 'MANEWACCOUNT00000001', B_TOKEN, B_SID])
      expect(text).not.toContain(secret);
    expect(text).toMatch(/"sealed":"v1\.[\w-]+\.[\w-]+\.[\w-]+"/);
  });
});
