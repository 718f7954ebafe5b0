// Extraction sets: CRUD, key rules, attaching to agents, inline keys on the agent, clashes, tenancy,
// and the effective schema the calls service asks for.
import { api } from '../../support';
import { createAgent, fieldsOf, newPartner, partnerKey, uniqueName } from './agent-fixtures';
import { command, natsProbe } from './nats-probe';

type Key = { name: string; type: string; options?: string[]; description?: string };

const k = (name: string, type = 'string', extra: Partial<Key> = {}): Key => ({ name, type, ...extra });

describe('extraction sets', () => {
  let key: string;
  let partnerId: string;

  beforeAll(async () => {
    ({ id: partnerId, key } = await newPartner());
  });

  const createSet = async (keys: Key[], name = uniqueName('Set'), k2 = key) => {
    const res = await api('/extraction-sets', { method: 'POST', key: k2, body: { name, keys } });
    if (res.status !== 200)
      throw new Error(`POST /extraction-sets answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const attach = (agentId: string, setId: string, k2 = key) =>
    api(`/agent/${agentId}/extraction-sets/${setId}`, { method: 'POST', key: k2 });
  const setInline = (agentId: string, keys: Key[] | null) =>
    api(`/agent/${agentId}`, { method: 'PUT', key, body: { extraction_config: keys && { keys } } });

  describe('CRUD', () => {
    it('creates a set and shows the whole record', async () => {
      const name = uniqueName('Lead qualification');
      const res = await api('/extraction-sets', {
        method: 'POST',
        key,
        body: {
          name,
          description: 'What sales needs after a call',
          keys: [
            k('interested', 'boolean', { description: 'Whether the lead is interested' }),
            k('budget_inr', 'number'),
            k('callback_on', 'date'),
            k('outcome', 'enum', { options: ['won', 'lost', 'later'] }),
            k('notes'),
          ],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        id: expect.stringMatching(/^exs_[0-9a-f-]{36}$/),
        name,
        description: 'What sales needs after a call',
        keys: [
          { name: 'interested', type: 'boolean', description: 'Whether the lead is interested' },
          { name: 'budget_inr', type: 'number', description: '' },
          { name: 'callback_on', type: 'date', description: '' },
          { name: 'outcome', type: 'enum', options: ['won', 'lost', 'later'], description: '' },
          { name: 'notes', type: 'string', description: '' },
        ],
        created_at: expect.any(String),
        updated_at: expect.any(String),
        attached_agents: [],
        attached_campaigns: [],
        dropped_inline_keys: [],
      });
      expect((await api(`/extraction-sets/${res.body.data.id}`, { key })).body.data).toEqual(res.body.data);
    });

    it('answers 409 CONFLICT for a duplicate name on the account', async () => {
      const set = await createSet([]);
      const res = await api('/extraction-sets', { method: 'POST', key, body: { name: set.name, keys: [] } });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      // Another account may use it.
      expect((await createSet([], set.name, await partnerKey())).name).toBe(set.name);
    });

    it('updates name, description and keys partially', async () => {
      const set = await createSet([k('a')]);
      const renamed = await api(`/extraction-sets/${set.id}`, {
        method: 'PATCH',
        key,
        body: { name: `${set.name} v2` },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({ name: `${set.name} v2`, keys: set.keys, description: '' });
      const rekeyed = await api(`/extraction-sets/${set.id}`, {
        method: 'PATCH',
        key,
        body: { keys: [k('b', 'boolean')], description: 'New' },
      });
      expect(rekeyed.body.data).toMatchObject({
        name: `${set.name} v2`,
        description: 'New',
        keys: [{ name: 'b', type: 'boolean', description: '' }],
      });
      expect(
        (await api(`/extraction-sets/${set.id}`, { method: 'PATCH', key, body: { description: null } })).body
          .data.description,
      ).toBe('');
    });

    it('lists sets with cursor pagination', async () => {
      const own = await partnerKey();
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await createSet([], uniqueName(`L${i}`), own)).id);
      const first = await api('/extraction-sets?limit=2', { key: own });
      expect(first.body.data.extraction_sets.map((s: { id: string }) => s.id)).toEqual(made.slice(0, 2));
      const second = await api(
        `/extraction-sets?limit=2&cursor=${encodeURIComponent(first.body.data.next_cursor)}`,
        { key: own },
      );
      expect(second.body.data.extraction_sets.map((s: { id: string }) => s.id)).toEqual(made.slice(2));
      expect(second.body.data.next_cursor).toBeNull();
    });

    it('deletes a set and detaches it from its agents', async () => {
      const set = await createSet([k('x')]);
      const agent = await createAgent(key);
      expect((await attach(agent.id, set.id)).status).toBe(200);
      const res = await api(`/extraction-sets/${set.id}`, { method: 'DELETE', key });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: set.id, message: expect.any(String) });
      expect((await api(`/extraction-sets/${set.id}`, { key })).status).toBe(404);
      expect((await api(`/extraction-sets/${set.id}`, { method: 'DELETE', key })).status).toBe(404);
      expect((await api(`/agent/${agent.id}`, { key })).body.data.extraction_sets).toEqual([]);
    });

    it.each(['exs_00000000-0000-4000-8000-000000000000', 'nope'])(
      'answers 404 for unknown set %s',
      async (id) => {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          const res = await api(`/extraction-sets/${id}`, {
            method,
            key,
            body: method === 'PATCH' ? { name: 'x' } : undefined,
          });
          expect(res.status).toBe(404);
          expect(res.body.error.code).toBe('NOT_FOUND');
        }
      },
    );
  });

  describe('key rules', () => {
    it.each([
      ['keys', undefined],
      ['keys', 'a'],
      ['keys', [{ type: 'string' }]],
      ['keys', [[]]],
      ['keys', [null]],
      ['keys', ['a']],
      ['keys', [k('ok'), [k('nested')]]],
      ['keys', [k('1st')]],
      ['keys', [k('Caller')]],
      ['keys', [k('caller-name')]],
      ['keys', [k('_x')]],
      ['keys', [k('a'.repeat(65))]],
      ['keys', [{ name: 'a' }]],
      ['keys', [k('a', 'datetime')]],
      ['keys', [k('a', 'enum')]],
      ['keys', [k('a', 'enum', { options: [] })]],
      ['keys', [k('a', 'enum', { options: ['x', 'x'] })]],
      ['keys', [k('a', 'string', { options: ['x'] })]],
      ['keys', [k('a', 'string', { description: 'd'.repeat(501) })]],
      ['keys', [k('a'), k('a', 'boolean')]],
      ['keys', [{ ...k('a'), required: true }]],
      ['keys', Array.from({ length: 101 }, (_, i) => k(`k${i}`))],
      ['name', ''],
      ['name', 'n'.repeat(101)],
      ['description', 'd'.repeat(1001)],
    ])('refuses %s = %j with 400 naming it', async (field, value) => {
      const body: Record<string, unknown> = { name: uniqueName('Bad'), keys: [k('ok')], [field]: value };
      if (value === undefined) delete body[field];
      const res = await api('/extraction-sets', { method: 'POST', key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body).some((f) => f === field || f.startsWith(`${field}.`))).toBe(true);
    });

    it('accepts a 64-character name and 100 keys', async () => {
      const set = await createSet([k('a'.repeat(64)), ...Array.from({ length: 99 }, (_, i) => k(`k${i}`))]);
      expect(set.keys).toHaveLength(100);
    });

    it('applies the same rules to inline keys on the agent, with a limit of 50', async () => {
      const agent = await createAgent(key);
      const bad = await setInline(agent.id, [k('Bad Name')]);
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad.body)).toEqual(['extraction_config.keys.0.name']);
      expect(bad.body.error.message).toContain('extraction_config.keys.0.name');
      const dup = await setInline(agent.id, [k('a'), k('a')]);
      expect(fieldsOf(dup.body)).toEqual(['extraction_config.keys']);
      const many = await setInline(
        agent.id,
        Array.from({ length: 51 }, (_, i) => k(`k${i}`)),
      );
      expect(many.status).toBe(400);
      expect(
        (await api(`/agent/${agent.id}`, { method: 'PUT', key, body: { extraction_config: {} } })).status,
      ).toBe(400);
      // A nested array is not a key, in either list (the validator would otherwise walk into it).
      const nested = await setInline(agent.id, [[]] as unknown as Key[]);
      expect(nested.status).toBe(400);
      expect(fieldsOf(nested.body)).toEqual(['extraction_config.keys']);
      const set = await createSet([k('a')]);
      const patched = await api(`/extraction-sets/${set.id}`, { method: 'PATCH', key, body: { keys: [[]] } });
      expect(patched.status).toBe(400);
      expect(fieldsOf(patched.body)).toEqual(['keys']);
      expect((await api(`/extraction-sets/${set.id}`, { key })).body.data.keys).toEqual(set.keys);
    });
  });

  describe('inline keys and attachments', () => {
    it('sets, replaces and clears inline keys with PUT /agent/{id}', async () => {
      const agent = await createAgent(key);
      const res = await setInline(agent.id, [
        k('caller_name', 'string', { description: 'Full name' }),
        k('happy', 'boolean'),
      ]);
      expect(res.status).toBe(200);
      expect(res.body.data.extraction_config).toEqual({
        keys: [
          { name: 'caller_name', type: 'string', description: 'Full name' },
          { name: 'happy', type: 'boolean', description: '' },
        ],
      });
      expect(
        (await setInline(agent.id, [k('x')])).body.data.extraction_config.keys.map((x: Key) => x.name),
      ).toEqual(['x']);
      expect((await setInline(agent.id, null)).body.data.extraction_config).toEqual({ keys: [] });
    });

    it('attaches and detaches sets, shown on both records', async () => {
      const agent = await createAgent(key);
      const s1 = await createSet([k('a')]);
      const s2 = await createSet([k('b')]);
      expect((await attach(agent.id, s1.id)).body.data.extraction_sets).toEqual([
        { id: s1.id, name: s1.name },
      ]);
      const twice = await attach(agent.id, s2.id);
      expect(twice.body.data.extraction_sets).toEqual([
        { id: s1.id, name: s1.name },
        { id: s2.id, name: s2.name },
      ]);
      // Attaching again changes nothing.
      expect((await attach(agent.id, s1.id)).body.data.extraction_sets).toHaveLength(2);
      expect((await api(`/extraction-sets/${s1.id}`, { key })).body.data.attached_agents).toEqual([
        { id: agent.id, name: agent.agent_name },
      ]);
      const detached = await api(`/agent/${agent.id}/extraction-sets/${s1.id}`, { method: 'DELETE', key });
      expect(detached.status).toBe(200);
      expect(detached.body.data.extraction_sets).toEqual([{ id: s2.id, name: s2.name }]);
      expect((await api(`/extraction-sets/${s1.id}`, { key })).body.data.attached_agents).toEqual([]);
      const again = await api(`/agent/${agent.id}/extraction-sets/${s1.id}`, { method: 'DELETE', key });
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe('NOT_FOUND');
    });

    it('refuses clashes between inline keys and attached sets with 409 EXTRACTION_KEY_CLASH', async () => {
      const agent = await createAgent(key);
      const set = await createSet([k('email'), k('phone')]);
      const other = await createSet([k('phone', 'number')]);
      expect((await setInline(agent.id, [k('email', 'string')])).status).toBe(200);

      const attachClash = await attach(agent.id, set.id);
      expect(attachClash.status).toBe(409);
      expect(attachClash.body.error.code).toBe('EXTRACTION_KEY_CLASH');
      expect(attachClash.body.error.message).toContain('email');

      expect((await setInline(agent.id, [k('name')])).status).toBe(200);
      expect((await attach(agent.id, set.id)).status).toBe(200);
      const inlineClash = await setInline(agent.id, [k('email')]);
      expect(inlineClash.status).toBe(409);
      expect(inlineClash.body.error.code).toBe('EXTRACTION_KEY_CLASH');

      const setClash = await attach(agent.id, other.id);
      expect(setClash.status).toBe(409);
      expect(setClash.body.error.message).toContain('phone');

      const patchClash = await api(`/extraction-sets/${set.id}`, {
        method: 'PATCH',
        key,
        body: { keys: [k('email'), k('name')] },
      });
      expect(patchClash.status).toBe(409);
      expect(patchClash.body.error.code).toBe('EXTRACTION_KEY_CLASH');
      // Nothing changed.
      expect(
        (await api(`/extraction-sets/${set.id}`, { key })).body.data.keys.map((x: Key) => x.name),
      ).toEqual(['email', 'phone']);
      expect(
        (await api(`/agent/${agent.id}`, { key })).body.data.extraction_config.keys.map((x: Key) => x.name),
      ).toEqual(['name']);
    });

    it('answers the effective schema (set keys, then inline keys) over NATS', async () => {
      const agent = await createAgent(key, { extraction_enabled: false });
      const set = await createSet([k('outcome', 'enum', { options: ['yes', 'no'] })]);
      await setInline(agent.id, [k('notes')]);
      await attach(agent.id, set.id);
      const nc = await natsProbe();
      try {
        const reply = await command(nc, 'agents.extraction.effective_schema', partnerId, {
          agentId: agent.id,
        });
        expect(reply).toEqual({
          ok: true,
          data: {
            agentId: agent.id,
            extractionEnabled: false,
            keys: [
              {
                name: 'outcome',
                type: 'enum',
                options: ['yes', 'no'],
                description: '',
                source: 'set',
                setId: set.id,
              },
              { name: 'notes', type: 'string', description: '', source: 'inline', setId: null },
            ],
          },
        });
        const foreign = await command(nc, 'agents.extraction.effective_schema', (await newPartner()).id, {
          agentId: agent.id,
        });
        expect(foreign).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      } finally {
        await nc.drain();
      }
    });
  });

  describe('tenancy', () => {
    it("answers 404 for another account's set on every route", async () => {
      const otherKey = await partnerKey();
      const foreign = await createSet([k('a')], uniqueName('Foreign'), otherKey);
      const agent = await createAgent(key);
      const routes: [string, string, unknown?][] = [
        ['GET', `/extraction-sets/${foreign.id}`],
        ['PATCH', `/extraction-sets/${foreign.id}`, { name: 'mine' }],
        ['DELETE', `/extraction-sets/${foreign.id}`],
        ['POST', `/agent/${agent.id}/extraction-sets/${foreign.id}`],
        ['DELETE', `/agent/${agent.id}/extraction-sets/${foreign.id}`],
        ['POST', '/extraction-sets/from-agent', { agent_id: agent.id, set_id: foreign.id }],
      ];
      for (const [method, path, body] of routes) {
        const res = await api(path, { method, key, body });
        expect({ route: `${method} ${path}`, status: res.status }).toEqual({
          route: `${method} ${path}`,
          status: 404,
        });
      }
      expect(
        (await api('/extraction-sets', { key })).body.data.extraction_sets.some(
          (s: { id: string }) => s.id === foreign.id,
        ),
      ).toBe(false);
      expect((await api(`/extraction-sets/${foreign.id}`, { key: otherKey })).body.data.name).toBe(
        foreign.name,
      );
    });

    it("cannot attach a set to another account's agent", async () => {
      const otherAgent = await createAgent(await partnerKey());
      const set = await createSet([]);
      expect((await attach(otherAgent.id, set.id)).status).toBe(404);
    });
  });
});
