// Pronunciation dictionaries through the gateway: CRUD with pagination, the limits, tenancy, and the delete
// refused while agents use one.
import { adminApi, api } from '../../support';
import { createAgent, fieldsOf, newPartner, randomId, UUID } from './agent-fixtures';

const ENTRIES = [
  { word: 'Ravigo', alias: 'ruh vee go', ipa: 'ɹəˈviːɡoʊ' },
  { word: 'Acme' },
  { word: 'Nguyen', ipa: 'ŋwiən' },
];

describe('dictionaries', () => {
  let key: string;

  beforeAll(async () => {
    ({ key } = await newPartner());
  });

  const create = (body: Record<string, unknown>, as = key) => api('/dictionaries', { key: as, body });

  it('creates, reads, updates and deletes a dictionary', async () => {
    const created = await create({ name: ' Brand names ', description: 'Our products', entries: ENTRIES });
    expect(created.status).toBe(200);
    const dictionary = created.body.data;
    expect(dictionary).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Brand names',
      description: 'Our products',
      entry_count: 3,
      entries: ENTRIES,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const read = await api(`/dictionaries/${dictionary.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(dictionary);

    const patched = await api(`/dictionaries/${dictionary.id}`, {
      method: 'PATCH',
      key,
      body: { description: null, entries: [{ word: 'Zylo', alias: 'zy low' }] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      name: 'Brand names',
      description: null,
      entries: [{ word: 'Zylo', alias: 'zy low' }],
    });
    expect(Date.parse(patched.body.data.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(dictionary.updated_at),
    );

    const renamed = await api(`/dictionaries/${dictionary.id}`, {
      method: 'PATCH',
      key,
      body: { name: 'Renamed' },
    });
    expect(renamed.body.data).toMatchObject({
      name: 'Renamed',
      entries: [{ word: 'Zylo', alias: 'zy low' }],
    });

    const deleted = await api(`/dictionaries/${dictionary.id}`, { method: 'DELETE', key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: dictionary.id, message: 'Dictionary deleted' });
    expect((await api(`/dictionaries/${dictionary.id}`, { key })).status).toBe(404);
    expect((await api(`/dictionaries/${dictionary.id}`, { method: 'DELETE', key })).status).toBe(404);
  });

  it('lists oldest first, page by page', async () => {
    const own = (await newPartner()).key;
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) ids.push((await create({ name }, own)).body.data.id);
    const first = await api('/dictionaries?limit=2', { key: own });
    expect(first.status).toBe(200);
    expect(first.body.data.dictionaries.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 2));
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await api(
      `/dictionaries?limit=2&cursor=${encodeURIComponent(first.body.data.next_cursor)}`,
      {
        key: own,
      },
    );
    expect(second.body.data.dictionaries.map((d: { id: string }) => d.id)).toEqual(ids.slice(2));
    expect(second.body.data.next_cursor).toBeNull();
    // Lists count the entries; the dictionary itself answers them.
    expect(first.body.data.dictionaries[0]).toEqual({
      id: ids[0],
      name: 'one',
      description: null,
      entry_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api('/dictionaries?limit=0', { key: own })).status).toBe(400);
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['a long word', { name: 'x', entries: [{ word: 'w'.repeat(65) }] }, 'entries.0.word'],
    ['a long alias', { name: 'x', entries: [{ word: 'w', alias: 'a'.repeat(129) }] }, 'entries.0.alias'],
    ['a long IPA', { name: 'x', entries: [{ word: 'w', ipa: 'ə'.repeat(129) }] }, 'entries.0.ipa'],
    ['IPA with other characters', { name: 'x', entries: [{ word: 'w', ipa: 'HELLO!' }] }, 'entries.0.ipa'],
    ['a word twice', { name: 'x', entries: [{ word: 'Acme' }, { word: 'acme' }] }, 'entries'],
    ['an unknown field', { name: 'x', entries: [{ word: 'w', say: 'x' }] }, 'entries.0.say'],
    [
      'more than 500 entries',
      { name: 'x', entries: Array.from({ length: 501 }, (_, i) => ({ word: `w${i}` })) },
      'entries',
    ],
  ])('refuses %s with 400 naming the field', async (_title, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(res.body)).toEqual([field]);
  });

  it('takes 500 entries', async () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({ word: `word${i}`, alias: `alias ${i}` }));
    const res = await create({ name: 'Big', entries });
    expect(res.status).toBe(200);
    expect(res.body.data.entries).toHaveLength(500);
    expect(res.body.data.entry_count).toBe(500);
  });

  it('holds at most 50 dictionaries per account (429 LIMIT_REACHED)', async () => {
    const own = (await newPartner()).key;
    for (let batch = 0; batch < 5; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => create({ name: `d${batch * 10 + i}` }, own)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    }
    const over = await create({ name: 'one too many' }, own);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('LIMIT_REACHED');
    // Another account is not affected.
    expect((await create({ name: 'elsewhere' })).status).toBe(200);
  });

  it("answers 404 for another account's dictionary on every route", async () => {
    const theirs = (await create({ name: 'Theirs', entries: ENTRIES })).body.data.id;
    const other = (await newPartner()).key;
    expect((await api(`/dictionaries/${theirs}`, { key: other })).status).toBe(404);
    const patch = await api(`/dictionaries/${theirs}`, {
      method: 'PATCH',
      key: other,
      body: { name: 'Mine' },
    });
    expect(patch.status).toBe(404);
    expect((await api(`/dictionaries/${theirs}`, { method: 'DELETE', key: other })).status).toBe(404);
    const list = await api('/dictionaries', { key: other });
    expect(list.body.data.dictionaries.map((d: { id: string }) => d.id)).not.toContain(theirs);
    expect((await api(`/dictionaries/${randomId()}`, { key })).status).toBe(404);
    expect((await api('/dictionaries/not-an-id', { key })).status).toBe(404);
    expect((await api(`/dictionaries/${theirs}`, { key })).body.data.name).toBe('Theirs');
  });

  it('refuses to delete a dictionary live agents use, naming them, and deletes it once they let go', async () => {
    const dictionary = (await create({ name: 'In use', entries: ENTRIES })).body.data.id;
    const agent = await createAgent(key, { dictionary_ids: [dictionary] });
    const refused = await api(`/dictionaries/${dictionary}`, { method: 'DELETE', key });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect(refused.body.error.message).toContain(agent.agent_name);
    expect(refused.body.error.message).toContain(agent.id);
    expect((await api(`/dictionaries/${dictionary}`, { key })).status).toBe(200);

    // A deleted agent does not hold it.
    const gone = await createAgent(key, { dictionary_ids: [dictionary] });
    expect((await api(`/agent/${gone.id}`, { method: 'DELETE', key })).status).toBe(200);
    const detached = await api(`/agent/${agent.id}`, { method: 'PUT', key, body: { dictionary_ids: [] } });
    expect(detached.status).toBe(200);
    expect((await api(`/dictionaries/${dictionary}`, { method: 'DELETE', key })).status).toBe(200);
  });

  it('is an agents resource for scoped keys', async () => {
    const { id } = await newPartner();
    const issue = async (scopes: string[]) =>
      (await adminApi(`/partners/${id}/api-keys`, { method: 'POST', body: { scopes } })).body.data
        .api_key as string;
    const reader = await issue(['agents:read']);
    const writer = await issue(['agents:write']);
    const other = await issue(['calls:write']);
    expect((await create({ name: 'w' }, writer)).status).toBe(200);
    expect((await api('/dictionaries', { key: reader })).status).toBe(200);
    expect((await create({ name: 'r' }, reader)).status).toBe(403);
    expect((await api('/dictionaries', { key: other })).status).toBe(403);
  });

  it('requires an API key', async () => {
    expect((await api('/dictionaries')).status).toBe(401);
  });
});
