import { api, createPartner, e2eEnv } from '../../support';

/** Every failure answers the contract's error envelope, never a stack trace or an HTML page. */
function expectErrorEnvelope(body: unknown, code: string): void {
  expect(body).toEqual({
    success: false,
    error: expect.objectContaining({ code, message: expect.any(String) }),
  });
  expect(JSON.stringify(body)).not.toMatch(/\bat .+\.(js|ts):\d+/);
}

describe('error envelope', () => {
  let key: string;

  beforeAll(async () => {
    ({ apiKey: key } = await createPartner({ name: 'Envelope Co' }));
  });

  it('answers unknown routes with 404 NOT_FOUND', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/no-such-thing'],
      ['POST', '/api/v2/customers/x/y/z'],
      ['DELETE', '/api/v2/customers'],
      ['GET', '/totally/elsewhere'],
    ]) {
      const res = await api(path, { method, key });
      expect(res.status).toBe(404);
      expectErrorEnvelope(res.body, 'NOT_FOUND');
    }
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    const res = await api('/api/v2/customers', {
      method: 'POST',
      key,
      body: '{"external_id": "a", "name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectErrorEnvelope(res.body, 'VALIDATION_ERROR');
    expect(res.body.error.message).toMatch(/Malformed JSON/);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const res = await api('/api/v2/customers', {
      method: 'POST',
      key,
      body: '"just a string"',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectErrorEnvelope(res.body, 'VALIDATION_ERROR');
  });

  it('answers an oversize body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await api('/api/v2/customers', {
      method: 'POST',
      key,
      body: { external_id: 'big', name: 'Big', metadata: { blob: 'x'.repeat(1_100_000) } },
    });
    expect(res.status).toBe(413);
    expectErrorEnvelope(res.body, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a non-JSON body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await api('/api/v2/customers', {
      method: 'POST',
      key,
      body: 'external_id=a&name=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expectErrorEnvelope(res.body, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an unknown route 404 NOT_FOUND whatever the type of its body', async () => {
    const res = await api('/api/v2/no-such-resource', {
      method: 'POST',
      key,
      body: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(404);
    expectErrorEnvelope(res.body, 'NOT_FOUND');
  });

  it('names every invalid field in a validation failure', async () => {
    const res = await api('/api/v2/customers?limit=0', { key });
    expect(res.status).toBe(400);
    expectErrorEnvelope(res.body, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'limit' })]);
    expect(res.body.error.message).toMatch(/limit/);

    const many = await api('/api/v2/customers', {
      method: 'POST',
      key,
      body: { external_id: 'ok', name: 'ok', bogus: 1, other: 2 },
    });
    expect(many.status).toBe(400);
    expect(many.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['bogus', 'other']);
  });

  it('answers a tampered pagination cursor with 400, not 500', async () => {
    const res = await api('/api/v2/customers?cursor=not-a-cursor', { key });
    expect(res.status).toBe(400);
    expectErrorEnvelope(res.body, 'VALIDATION_ERROR');
  });

  it('echoes a caller’s X-Request-Id and puts it in error bodies; makes one up otherwise', async () => {
    const mine = await api('/api/v2/no-such-thing', { key, headers: { 'x-request-id': 'req-abc.123' } });
    expect(mine.headers.get('x-request-id')).toBe('req-abc.123');
    expect(mine.body.error.request_id).toBe('req-abc.123');
    const made = await api('/api/v2/billing/balance', { key });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await api('/api/v2/billing/balance', {
      key,
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves JSON, not HTML, for errors on any method', async () => {
    const res = await fetch(`${e2eEnv().gatewayUrl}/api/v2/customers`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.status).toBe(404);
  });
});
