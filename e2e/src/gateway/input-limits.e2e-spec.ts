// Input Postgres cannot store or recursion cannot walk is refused at the edge with 400 VALIDATION_ERROR
// naming the field, on every route: NUL characters in any string, JSON nested too deep, and cursors whose
// parts are not what the list pages by.
import { api, ApiResponse, createPartner, gatewayUrl, PARTNER_API, rawRequest } from '../../support';

const encodeCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const T = '2026-01-01T00:00:00.000Z';
const SOME_UUID = '00000000-0000-4000-8000-000000000000';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('input limits', () => {
  let key: string;
  let agentId: string;
  let campaignId: string;
  let webhookId: string;

  beforeAll(async () => {
    ({ apiKey: key } = await createPartner({ balance_inr: 100 }));
    const agent = await api('/agent', {
      key,
      body: {
        agent_name: 'Limits',
        prompt: 'You are a test agent.',
        voice_id: '72158370-d269-49a5-ae65-8f33fe3b890b',
        agent_type: 'outbound',
      },
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.data.id;
    const campaign = await api('/campaigns', { key, body: { name: 'Limits', agent_id: agentId } });
    expect(campaign.status).toBe(200);
    campaignId = campaign.body.data.campaign_id;
    const endpoint = await api('/config/webhooks', {
      key,
      body: { label: 'limits', url: 'https://receiver.example/hook' },
    });
    expect(endpoint.status).toBe(200);
    webhookId = endpoint.body.data.id;
  });

  const expectRefused = (res: ApiResponse, field: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(res.body.error.details).toEqual([expect.objectContaining({ field })]);
  };

  /** Posts bytes as they are, for bodies a JSON.stringify could not write. */
  const send = async (path: string, type: string, body: Buffer | string): Promise<ApiResponse> => {
    const res = await fetch(`${gatewayUrl()}${PARTNER_API}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body,
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };

  it.each([
    ['a customer’s external_id', '/customers', { external_id: 'acct\u000042', name: 'Nul' }, 'external_id'],
    [
      'a customer’s metadata',
      '/customers',
      { external_id: 'acct-nul-meta', name: 'Nul', metadata: { note: 'a\u0000b' } },
      'metadata.note',
    ],
    [
      'a metadata key',
      '/customers',
      { external_id: 'acct-nul-key', name: 'Nul', metadata: { 'k\u0000': 1 } },
      'metadata.k\\u0000',
    ],
    [
      'call variables',
      '/calls/start',
      { to_number: '+919876543210', variables: { name: 'x\u0000' } },
      'variables.name',
    ],
  ])('refuses a NUL character in %s', async (_label, path, body, field) => {
    const withAgent = path === '/calls/start' ? { agent_id: agentId, ...body } : body;
    expectRefused(await api(path, { key, body: withAgent }), field);
  });

  it('refuses an unpaired surrogate, which jsonb cannot store, and keeps paired ones', async () => {
    const lone = await api('/customers', {
      key,
      body: { external_id: 'acct-surrogate', name: 'Lone', metadata: { emoji: '\ud83d broken' } },
    });
    expectRefused(lone, 'metadata.emoji');
    const paired = await api('/customers', {
      key,
      body: { external_id: 'acct-surrogate-ok', name: 'Paired', metadata: { emoji: '🙂 ünïcödé' } },
    });
    expect(paired.status).toBe(200);
    expect(paired.body.data.metadata).toEqual({ emoji: '🙂 ünïcödé' });
  });

  it('refuses a number beyond the double range, which would be stored as null, wherever it is', async () => {
    expectRefused(
      await send(
        '/customers',
        'application/json',
        '{"external_id":"acct-huge","name":"Huge","metadata":{"n":1e400}}',
      ),
      'metadata.n',
    );
    expect((await api('/customers?external_id=acct-huge', { key })).body.data.customers).toEqual([]);
    expectRefused(
      await send(
        '/calls/start',
        'application/json',
        `{"agent_id":"${agentId}","to_number":"+919876543210","variables":{"x":-1e999}}`,
      ),
      'variables.x',
    );
    const large = await send(
      '/customers',
      'application/json',
      '{"external_id":"acct-large","name":"Large","metadata":{"n":1e308}}',
    );
    expect(large.status).toBe(200);
    expect(large.body.data.metadata).toEqual({ n: 1e308 });
  });

  it('refuses a body that is not valid UTF-8 rather than storing replacement characters, JSON or CSV', async () => {
    // 0xFF and 0xFE never occur in UTF-8; decoded leniently, both would become U+FFFD.
    const invalid = Buffer.concat([
      Buffer.from('{"external_id":"acct-'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","name":"Bytes"}'),
    ]);
    expectRefused(await send('/customers', 'application/json', invalid), 'body');
    expect((await api('/customers?external_id=acct-\ufffd\ufffd', { key })).body.data.customers).toEqual([]);
    const csv = Buffer.concat([
      Buffer.from('phone_number,city\n+919876543210,Pu'),
      Buffer.from([0xff]),
      Buffer.from('ne\n'),
    ]);
    expectRefused(await send(`/campaigns/${campaignId}/contacts`, 'text/csv', csv), 'body');
    // Valid multi-byte UTF-8 is taken as sent.
    const accented = await send(
      '/customers',
      'application/json',
      Buffer.from('{"external_id":"café-42","name":"Ünïcödé"}'),
    );
    expect(accented.status).toBe(200);
    expect(accented.body.data).toMatchObject({ external_id: 'café-42', name: 'Ünïcödé' });
  });

  it('names a value of the wrong kind as such, not by the length or range it also misses', async () => {
    const external = await api('/customers', { key, body: { external_id: 123, name: 'Kind' } });
    expect(external.status).toBe(400);
    expect(external.body.error).toMatchObject({
      code: 'INVALID_EXTERNAL_ID',
      details: [{ field: 'external_id', message: 'external_id must be a string' }],
    });
    const limit = await api('/customers?limit=abc', { key });
    expect(limit.body.error.details).toEqual([
      { field: 'limit', message: 'limit must be an integer number' },
    ]);
    const credentials = await api('/config/telephony/carrier_a', {
      key,
      method: 'PUT',
      body: { auth_id: 1, auth_token: 'token' },
    });
    expect(credentials.body.error.details).toEqual([
      { field: 'auth_id', message: 'auth_id must be a string' },
      { field: 'from_number', message: 'from_number is required' },
    ]);
  });

  it('refuses a NUL character in a campaign contact’s variables, JSON or CSV', async () => {
    const json = await api(`/campaigns/${campaignId}/contacts`, {
      key,
      body: { contacts: [{ phone_number: '+919876543210', variables: { city: 'Pune\u0000' } }] },
    });
    expectRefused(json, 'contacts.0.variables.city');
    const csv = await api(`/campaigns/${campaignId}/contacts`, {
      key,
      body: 'phone_number,city\n+919876543210,Pu\u0000ne\n',
      headers: { 'content-type': 'text/csv' },
    });
    expectRefused(csv, 'body');
  });

  it('refuses a NUL character in a query parameter or a path', async () => {
    expectRefused(await api('/customers?external_id=a%00b', { key }), 'external_id');
    expectRefused(await api('/agent?search=%00', { key }), 'search');
    expectRefused(await api('/customers/a%00b', { key }), 'path');
  });

  it('answers a URL over the size limit with the envelope, not a bare 431', async () => {
    const res = await api(`/customers?external_id=${'x'.repeat(20_000)}`, { key });
    expect(res.status).toBe(431);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('refuses JSON nested deeper than 32 levels, and takes 32', async () => {
    const deep = await api('/customers', {
      key,
      body: { external_id: 'acct-deep', name: 'Deep', metadata: nested(40) },
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error.code).toBe('VALIDATION_ERROR');
    expect(deep.body.error.message).toMatch(/deeper than 32/);
    const huge = await api('/customers', {
      key,
      body: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error.code).toBe('VALIDATION_ERROR');
    const fine = await api('/customers', {
      key,
      body: { external_id: 'acct-deep-ok', name: 'Deep', metadata: nested(30) },
    });
    expect(fine.status).toBe(200);
  });

  it.each([
    ['an id that is not a UUID', encodeCursor({ t: T, id: 'not-a-uuid' })],
    ['a numeric id', encodeCursor({ t: T, id: '12345' })],
    ['a NUL in the id', encodeCursor({ t: T, id: 'a\u0000b' })],
    [
      'a timestamp Postgres cannot read',
      encodeCursor({ t: 'Tue, 01 Jan 2026 00:00:00 GMT+9999', id: SOME_UUID }),
    ],
    ['a date that does not exist', encodeCursor({ t: '2026-02-30T00:00:00Z', id: SOME_UUID })],
  ])('refuses a cursor with %s on every list', async (label, cursor) => {
    const lists = [
      '/calls',
      `/config/webhooks/${webhookId}/deliveries`,
      '/customers',
      '/agent',
      '/campaigns',
      '/documents',
      '/extraction-sets',
      '/phone-numbers',
      '/inbound-route-decisions',
      '/integration-logs',
    ];
    for (const list of lists) {
      const res = await api(`${list}?cursor=${cursor}`, { key });
      expect({ list, status: res.status, code: res.body?.error?.code }).toEqual({
        list,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    // Contacts page by a sequence number: a UUID there is as foreign as anything else.
    if (label !== 'a numeric id') {
      const contacts = await api(`/campaigns/${campaignId}/contacts?cursor=${cursor}`, { key });
      expect(contacts.status).toBe(400);
    }
  });

  it('takes a contacts cursor with a sequence number', async () => {
    const res = await api(`/campaigns/${campaignId}/contacts?cursor=${encodeCursor({ t: T, id: '12345' })}`, {
      key,
    });
    expect(res.status).toBe(200);
  });

  it('still pages with the cursors it hands out', async () => {
    for (const n of [1, 2, 3]) {
      expect(
        (await api('/customers', { key, body: { external_id: `acct-page-${n}`, name: 'Page' } })).status,
      ).toBe(200);
    }
    const first = await api('/customers?limit=2', { key });
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await api(`/customers?limit=2&cursor=${first.body.data.next_cursor}`, { key });
    expect(second.status).toBe(200);
    expect(second.body.data.customers.length).toBeGreaterThan(0);
  });

  it('answers a Content-Length over the limit with 413 PAYLOAD_TOO_LARGE at once, without reading the body', async () => {
    const base = gatewayUrl();
    for (const [path, type, length] of [
      [`${PARTNER_API}/agent`, 'application/json', 2 * 1024 * 1024],
      [`${PARTNER_API}/campaigns/${campaignId}/contacts`, 'text/csv', 3 * 1024 * 1024],
    ] as const) {
      const answer = await rawRequest(base, {
        method: 'POST',
        path,
        headers: {
          host: new URL(base).host,
          authorization: `Bearer ${key}`,
          'content-type': type,
          'content-length': String(length),
        },
        body: 'a few bytes of it',
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
      // Answered on the header alone (the rest of the body never came), and the connection closes after it.
      expect(answer.elapsedMs).toBeLessThan(3000);
      expect(answer.headers.connection).toBe('close');
      expect(answer.closed).toBe(true);
    }
  });

  it('still lets a client that sends its whole oversize body read the 413', async () => {
    // Sent at once, as a client that does not wait for an early answer does: it must get the envelope, not a reset.
    const res = await api('/agent', {
      method: 'POST',
      key,
      body: JSON.stringify({ agent_name: 'x'.repeat(3 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
