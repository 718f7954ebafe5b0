import { api, createPartner } from '../../support';

const CUSTOMER_ID = /^cus_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('customers', () => {
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    ({ apiKey: key } = await createPartner({ name: 'Customers Co' }));
    ({ apiKey: otherKey } = await createPartner({ name: 'Customers Other Co' }));
  });

  const create = (body: unknown, k = key) => api('/api/v2/customers', { method: 'POST', key: k, body });

  describe('POST /customers', () => {
    it('registers a customer and returns the whole record', async () => {
      const res = await create({
        external_id: 'acct-1',
        name: 'First Customer',
        email: 'ops@first.example',
        metadata: { plan: 'gold', seats: 3 },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(CUSTOMER_ID),
          external_id: 'acct-1',
          name: 'First Customer',
          email: 'ops@first.example',
          metadata: { plan: 'gold', seats: 3 },
          status: 'ACTIVE',
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
      expect(new Date(res.body.data.created_at).toISOString()).toBe(res.body.data.created_at);
    });

    it('accepts null email and metadata, and the boundary lengths', async () => {
      const res = await create({
        external_id: 'e'.repeat(200),
        name: 'n'.repeat(200),
        email: null,
        metadata: null,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ email: null, metadata: null });
      const longEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
      expect(longEmail.length).toBe(254);
      expect((await create({ external_id: 'long-email', name: 'L', email: longEmail })).status).toBe(200);
    });

    it.each([
      ['missing', { name: 'x' }],
      ['empty', { external_id: '', name: 'x' }],
      ['blank', { external_id: '   ', name: 'x' }],
      ['201 characters', { external_id: 'e'.repeat(201), name: 'x' }],
      ['a number', { external_id: 42, name: 'x' }],
      ['null', { external_id: null, name: 'x' }],
    ])('refuses an external_id that is %s with 400 INVALID_EXTERNAL_ID', async (_l, body) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_EXTERNAL_ID');
      expect(res.body.error.message).toMatch(/external_id/);
    });

    it.each([
      ['missing', { external_id: 'n1' }],
      ['empty', { external_id: 'n2', name: '' }],
      ['blank', { external_id: 'n3', name: '    ' }],
      ['201 characters', { external_id: 'n4', name: 'n'.repeat(201) }],
      ['an object', { external_id: 'n5', name: { first: 'a' } }],
      ['null', { external_id: 'n6', name: null }],
    ])('refuses a name that is %s with 400 INVALID_NAME', async (_l, body) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_NAME');
      expect(res.body.error.message).toMatch(/name/);
    });

    it.each([
      ['not an address', 'not-an-email'],
      ['255 characters', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`],
      ['a number', 12345],
      ['an empty string', ''],
    ])('refuses an email that is %s with 400 INVALID_EMAIL', async (_l, email) => {
      const res = await create({ external_id: `bad-email-${String(email).length}`, name: 'x', email });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_EMAIL');
    });

    it.each([
      ['an array', [1, 2]],
      ['a string', 'meta'],
      ['a number', 7],
    ])('refuses metadata that is %s with 400 VALIDATION_ERROR', async (_l, metadata) => {
      const res = await create({ external_id: 'meta', name: 'x', metadata });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('metadata');
    });

    it('refuses unknown fields with 400 VALIDATION_ERROR naming them', async () => {
      const res = await create({ external_id: 'unk', name: 'x', status: 'ARCHIVED' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.body.error.message).toMatch(/status/);
    });

    it('answers a duplicate external_id on the account with 409 CONFLICT, but allows it on another account', async () => {
      expect((await create({ external_id: 'dup', name: 'One' })).status).toBe(200);
      const again = await create({ external_id: 'dup', name: 'Two' });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('CONFLICT');
      expect((await create({ external_id: 'dup', name: 'Theirs' }, otherKey)).status).toBe(200);
    });

    it('keeps external_id unique under concurrent creates', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => create({ external_id: 'race', name: `Racer ${i}` })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    });
  });

  describe('reading and listing', () => {
    let k: string;
    const ids: string[] = [];

    beforeAll(async () => {
      ({ apiKey: k } = await createPartner({ name: 'Lister Co' }));
      for (let i = 0; i < 5; i++) {
        const res = await create({ external_id: `list-${i}`, name: `Customer ${i}` }, k);
        ids.push(res.body.data.id);
      }
      await api(`/api/v2/customers/${ids[4]}`, { method: 'PATCH', key: k, body: { status: 'ARCHIVED' } });
    });

    it('gets a customer by id, and 404 for an unknown id', async () => {
      const res = await api(`/api/v2/customers/${ids[0]}`, { key: k });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: ids[0], external_id: 'list-0' });
      const missing = await api('/api/v2/customers/cus_00000000-0000-4000-8000-000000000000', { key: k });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('NOT_FOUND');
    });

    it('pages with a cursor until next_cursor is null, in creation order', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
        const res = await api(`/api/v2/customers${q}`, { key: k });
        expect(res.status).toBe(200);
        expect(res.body.data.customers.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.customers.map((c: { id: string }) => c.id));
        cursor = res.body.data.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(seen).toEqual(ids);
      expect(pages).toBe(3);
    });

    it('filters by external_id and by status', async () => {
      const byExt = await api('/api/v2/customers?external_id=list-3', { key: k });
      expect(byExt.body.data.customers.map((c: { id: string }) => c.id)).toEqual([ids[3]]);
      const archived = await api('/api/v2/customers?status=ARCHIVED', { key: k });
      expect(archived.body.data.customers.map((c: { id: string }) => c.id)).toEqual([ids[4]]);
      const active = await api('/api/v2/customers?status=ACTIVE', { key: k });
      expect(active.body.data.customers).toHaveLength(4);
    });

    it('lists only the account’s own customers', async () => {
      const theirs = await api('/api/v2/customers?external_id=list-0', { key: otherKey });
      expect(theirs.body.data.customers).toEqual([]);
    });

    it.each(['limit=0', 'limit=101', 'limit=abc', 'status=DELETED'])('refuses ?%s with 400', async (q) => {
      const res = await api(`/api/v2/customers?${q}`, { key: k });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('PATCH /customers/{id}', () => {
    let id: string;

    beforeAll(async () => {
      id = (
        await create({
          external_id: 'patch-me',
          name: 'Before',
          email: 'before@example.com',
          metadata: { a: 1 },
        })
      ).body.data.id;
    });

    it('updates name, email and metadata, and bumps updated_at', async () => {
      const before = (await api(`/api/v2/customers/${id}`, { key })).body.data;
      const res = await api(`/api/v2/customers/${id}`, {
        method: 'PATCH',
        key,
        body: { name: 'After', email: null, metadata: { b: 2 } },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: 'After',
        email: null,
        metadata: { b: 2 },
        external_id: 'patch-me',
      });
      expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    });

    it('archives and restores a customer', async () => {
      const archived = await api(`/api/v2/customers/${id}`, {
        method: 'PATCH',
        key,
        body: { status: 'ARCHIVED' },
      });
      expect(archived.body.data.status).toBe('ARCHIVED');
      const restored = await api(`/api/v2/customers/${id}`, {
        method: 'PATCH',
        key,
        body: { status: 'ACTIVE' },
      });
      expect(restored.body.data.status).toBe('ACTIVE');
    });

    it.each([
      [{ name: '' }, 'INVALID_NAME'],
      [{ name: null }, 'INVALID_NAME'],
      [{ email: 'nope' }, 'INVALID_EMAIL'],
      [{ status: null }, 'VALIDATION_ERROR'],
      [{ status: 'GONE' }, 'VALIDATION_ERROR'],
      [{ external_id: 'changed' }, 'VALIDATION_ERROR'],
    ])('refuses %j with 400 %s', async (body, code) => {
      const res = await api(`/api/v2/customers/${id}`, { method: 'PATCH', key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(code);
    });

    it('answers 404 for an unknown customer', async () => {
      const res = await api('/api/v2/customers/cus_00000000-0000-4000-8000-000000000000', {
        method: 'PATCH',
        key,
        body: { name: 'x' },
      });
      expect(res.status).toBe(404);
    });
  });
});
