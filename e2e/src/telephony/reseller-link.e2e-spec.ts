import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { adminApi, api, createPartner } from '../../support';

const RECORDS = [
  {
    id: 1,
    did_id: 101,
    did_number: '+919876543210',
    for_inbound_call: 1,
    for_outbound_call: 0,
    outbound_websocket_bot_id: 7,
    status: 1,
  },
  {
    id: 2,
    did_id: 102,
    did_number: '+919876543211',
    for_inbound_call: 0,
    for_outbound_call: 1,
    outbound_websocket_bot_id: 8,
    status: 0,
  },
];

/** The reseller's REST API: GET /call-routing with a Bearer key; one key answers garbage, one is slow to fail. */
async function startReseller(): Promise<{
  url: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url !== '/api/call-routing') return void res.writeHead(404).end();
    const auth = req.headers.authorization;
    if (auth === 'Bearer key-one')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: RECORDS }));
    if (auth === 'Bearer key-two')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([RECORDS[1]]));
    if (auth === 'Bearer key-garbage')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"rows": 3}');
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('reseller link', () => {
  let reseller: Awaited<ReturnType<typeof startReseller>>;

  beforeAll(async () => {
    reseller = await startReseller();
  });

  afterAll(async () => {
    await reseller?.close();
  });

  const connect = (partnerId: string, body: Record<string, unknown>) =>
    adminApi(`/partners/${partnerId}/reseller-link-connections`, { method: 'POST', body });
  const routing = (key: string, query = '') => api(`/reseller-link/call-routing${query}`, { key });

  it('answers 404 when the account has no reseller-link connection', async () => {
    const { apiKey } = await createPartner();
    const res = await routing(apiKey);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('reads the routing table of the only connection with its stored key', async () => {
    const { apiKey, partner } = await createPartner();
    const created = await connect(partner.id, {
      api_base_url: reseller.url,
      api_key: 'key-one',
      label: 'main',
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      provider: 'reseller-link',
      api_base_url: reseller.url,
      label: 'main',
      status: 'active',
    });
    expect(JSON.stringify(created.body)).not.toContain('key-one');
    const res = await routing(apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { data: RECORDS } });
    expect(reseller.seen.at(-1)?.authorization).toBe('Bearer key-one');
    const listed = (await api('/config/telephony', { key: apiKey })).body.data.connections;
    expect(listed.find((c: { provider: string }) => c.provider === 'reseller-link')).toMatchObject({
      id: created.body.data.id,
    });
  });

  it('needs connection_id only when several connections are active', async () => {
    const { apiKey, partner } = await createPartner();
    const one = (await connect(partner.id, { api_base_url: reseller.url, api_key: 'key-one' })).body.data.id;
    const two = (await connect(partner.id, { api_base_url: reseller.url, api_key: 'key-two' })).body.data.id;
    const ambiguous = await routing(apiKey);
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.code).toBe('VALIDATION_ERROR');
    expect(ambiguous.body.error.message).toContain('connection_id');
    expect((await routing(apiKey, `?connection_id=${two}`)).body.data.data).toEqual([RECORDS[1]]);
    expect((await routing(apiKey, `?connection_id=${one}`)).body.data.data).toEqual(RECORDS);
    expect((await routing(apiKey, '?connection_id=not-a-uuid')).status).toBe(400);
    expect((await routing(apiKey, '?connection_id=00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const off = await adminApi(`/partners/${partner.id}/reseller-link-connections/${two}`, {
      method: 'DELETE',
    });
    expect(off.status).toBe(200);
    expect(off.body.data.status).toBe('disabled');
    expect((await routing(apiKey)).body.data.data).toEqual(RECORDS);
    expect((await routing(apiKey, `?connection_id=${two}`)).status).toBe(404);
  });

  it('answers 404 for another account’s connection', async () => {
    const owner = await createPartner();
    const other = await createPartner();
    const id = (await connect(owner.partner.id, { api_base_url: reseller.url, api_key: 'key-one' })).body.data
      .id;
    expect((await routing(other.apiKey, `?connection_id=${id}`)).status).toBe(404);
  });

  it('answers 502 when the reseller API refuses or answers outside the record shape', async () => {
    for (const apiKey of ['key-wrong', 'key-garbage']) {
      const { apiKey: key, partner } = await createPartner();
      await connect(partner.id, { api_base_url: reseller.url, api_key: apiKey });
      const res = await routing(key);
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('INTERNAL_ERROR');
    }
  });

  it('validates the operator request', async () => {
    const { partner } = await createPartner();
    expect((await connect(partner.id, { api_base_url: 'not a url', api_key: 'k' })).status).toBe(400);
    expect((await connect(partner.id, { api_base_url: reseller.url })).status).toBe(400);
    expect(
      (await connect('00000000-0000-4000-8000-000000000000', { api_base_url: reseller.url, api_key: 'k' }))
        .status,
    ).toBe(404);
  });
});
