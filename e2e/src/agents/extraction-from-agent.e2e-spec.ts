// POST /extraction-sets/from-agent exactly as the contract says, and WRITE_CONFLICT instead of a lost
// update when another change to the same keys is in flight.
import { Client } from 'pg';
import { api, e2eEnv } from '../../support';
import { createAgent, fieldsOf, partnerKey, randomId, uniqueName } from './agent-fixtures';

type Key = { name: string; type: string; options?: string[]; description?: string };
const k = (name: string, type = 'string', description = ''): Key => ({ name, type, description });
const names = (keys: Key[]) => keys.map((x) => x.name);

describe('POST /extraction-sets/from-agent', () => {
  let key: string;

  beforeAll(async () => {
    key = await partnerKey();
  });

  const fromAgent = (body: unknown, k2 = key) =>
    api('/extraction-sets/from-agent', { method: 'POST', key: k2, body });
  const agentWithKeys = async (keys: Key[]) => {
    const agent = await createAgent(key);
    const res = await api(`/agent/${agent.id}`, {
      method: 'PUT',
      key,
      body: { extraction_config: { keys } },
    });
    expect(res.status).toBe(200);
    return agent;
  };
  const createSet = async (keys: Key[]) => {
    const res = await api('/extraction-sets', {
      method: 'POST',
      key,
      body: { name: uniqueName('Set'), keys },
    });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const getAgent = async (id: string) => (await api(`/agent/${id}`, { key })).body.data;
  const getSet = async (id: string) => (await api(`/extraction-sets/${id}`, { key })).body.data;

  describe('request rules', () => {
    it.each([
      ['neither name nor set_id', {}, 'name'],
      ['both name and set_id', { name: 'x', set_id: 'exs_x' }, 'name'],
      ['no agent_id', { agent_id: undefined, name: 'x' }, 'agent_id'],
      ['agent_id not a UUID', { agent_id: 'abc', name: 'x' }, 'agent_id'],
      ['an empty name', { name: '' }, 'name'],
      ['an unknown on_conflict', { name: 'x', on_conflict: 'overwrite' }, 'on_conflict'],
      ['an unknown field', { name: 'x', keys: [] }, 'keys'],
    ])('answers 400 VALIDATION_ERROR for %s', async (_case, extra, field) => {
      const body: Record<string, unknown> = { agent_id: randomId(), ...extra };
      for (const [f, v] of Object.entries(body)) if (v === undefined) delete body[f];
      const res = await fromAgent(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toContain(field);
    });

    it('answers 404 NOT_FOUND for an unknown, foreign or deleted agent and for an unknown or foreign set', async () => {
      const own = await agentWithKeys([k('a')]);
      const foreignAgent = await createAgent(await partnerKey());
      const deleted = await createAgent(key);
      await api(`/agent/${deleted.id}`, { method: 'DELETE', key });
      const otherKey = await partnerKey();
      const foreignSet = (
        await api('/extraction-sets', { method: 'POST', key: otherKey, body: { name: 'F', keys: [] } })
      ).body.data;
      for (const body of [
        { agent_id: randomId(), name: uniqueName('S') },
        { agent_id: foreignAgent.id, name: uniqueName('S') },
        { agent_id: deleted.id, name: uniqueName('S') },
        { agent_id: own.id, set_id: 'exs_00000000-0000-4000-8000-000000000000' },
        { agent_id: own.id, set_id: foreignSet.id },
      ]) {
        const res = await fromAgent(body);
        expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
          body,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
      // Nothing moved.
      expect(names((await getAgent(own.id)).extraction_config.keys)).toEqual(['a']);
    });

    it('answers 409 CONFLICT when the new set’s name is taken', async () => {
      const agent = await agentWithKeys([k('a')]);
      const existing = await createSet([]);
      const res = await fromAgent({ agent_id: agent.id, name: existing.name });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(names((await getAgent(agent.id)).extraction_config.keys)).toEqual(['a']);
    });
  });

  it('creates a set from the inline keys, attaches it and clears the moved keys', async () => {
    const inline = [k('caller_name', 'string', 'Full name'), k('wants_demo', 'boolean')];
    const agent = await agentWithKeys(inline);
    const name = uniqueName('Promoted');
    const res = await fromAgent({ agent_id: agent.id, name, description: 'From an agent' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^exs_/),
      name,
      description: 'From an agent',
      keys: inline,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      attached_agents: [{ id: agent.id, name: agent.agent_name }],
      attached_campaigns: [],
      dropped_inline_keys: [],
    });
    const after = await getAgent(agent.id);
    expect(after.extraction_config).toEqual({ keys: [] });
    expect(after.extraction_sets).toEqual([{ id: res.body.data.id, name }]);
  });

  it('merges into an existing set without a clash', async () => {
    const set = await createSet([k('budget', 'number')]);
    const agent = await agentWithKeys([k('timeline'), k('decision_maker', 'boolean')]);
    const res = await fromAgent({ agent_id: agent.id, set_id: set.id, description: 'ignored when merging' });
    expect(res.status).toBe(200);
    expect(names(res.body.data.keys)).toEqual(['budget', 'timeline', 'decision_maker']);
    expect(res.body.data.description).toBe('');
    expect(res.body.data.dropped_inline_keys).toEqual([]);
    expect(res.body.data.attached_agents).toEqual([{ id: agent.id, name: agent.agent_name }]);
    expect((await getAgent(agent.id)).extraction_config.keys).toEqual([]);
  });

  it('refuses a clash with 409 EXTRACTION_KEY_CLASH and changes nothing', async () => {
    const set = await createSet([k('email', 'string', 'Set definition')]);
    const agent = await agentWithKeys([k('email', 'string', 'Inline definition'), k('city')]);
    const res = await fromAgent({ agent_id: agent.id, set_id: set.id });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('EXTRACTION_KEY_CLASH');
    expect(res.body.error.message).toContain('email');
    expect(names((await getAgent(agent.id)).extraction_config.keys)).toEqual(['email', 'city']);
    expect(await getSet(set.id)).toMatchObject({
      keys: [k('email', 'string', 'Set definition')],
      attached_agents: [],
    });
  });

  it('with on_conflict keep_set_definition drops the clashing inline keys and lists them', async () => {
    const set = await createSet([k('email', 'string', 'Set definition')]);
    const agent = await agentWithKeys([k('email', 'string', 'Inline definition'), k('city')]);
    const res = await fromAgent({ agent_id: agent.id, set_id: set.id, on_conflict: 'keep_set_definition' });
    expect(res.status).toBe(200);
    expect(res.body.data.keys).toEqual([k('email', 'string', 'Set definition'), k('city')]);
    expect(res.body.data.dropped_inline_keys).toEqual([k('email', 'string', 'Inline definition')]);
    const after = await getAgent(agent.id);
    expect(after.extraction_config.keys).toEqual([]);
    expect(after.extraction_sets).toEqual([{ id: set.id, name: set.name }]);
    // The drop is reported once; the stored set does not carry it.
    expect((await getSet(set.id)).dropped_inline_keys).toEqual([]);
  });

  it('refuses a merge whose moved keys would clash on another agent of the set', async () => {
    const set = await createSet([k('a')]);
    const other = await agentWithKeys([k('b')]);
    expect((await api(`/agent/${other.id}/extraction-sets/${set.id}`, { method: 'POST', key })).status).toBe(
      200,
    );
    const agent = await agentWithKeys([k('b')]);
    const res = await fromAgent({ agent_id: agent.id, set_id: set.id });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('EXTRACTION_KEY_CLASH');
    expect(names((await getSet(set.id)).keys)).toEqual(['a']);
  });

  describe('concurrent changes', () => {
    let db: Client;

    beforeAll(async () => {
      db = new Client({ connectionString: e2eEnv().databaseUrl });
      await db.connect();
    });

    afterAll(async () => {
      await db?.end();
    });

    /** Holds a row lock as an in-flight change would, runs `during`, then lets go. */
    async function whileLocked<T>(
      table: 'agents' | 'extraction_sets',
      id: string,
      during: () => Promise<T>,
    ): Promise<T> {
      await db.query('BEGIN');
      try {
        await db.query(`SELECT 1 FROM agents.${table} WHERE id = $1 FOR UPDATE`, [id]);
        return await during();
      } finally {
        await db.query('ROLLBACK');
      }
    }

    it('answers 409 WRITE_CONFLICT at once while the agent or the set is being changed, then succeeds on retry', async () => {
      const set = await createSet([k('a')]);
      const agent = await agentWithKeys([k('b')]);
      for (const [table, id] of [
        ['agents', agent.id],
        ['extraction_sets', set.id],
      ] as const) {
        const started = Date.now();
        const res = await whileLocked(table, id, () => fromAgent({ agent_id: agent.id, set_id: set.id }));
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('WRITE_CONFLICT');
        expect(Date.now() - started).toBeLessThan(3000);
      }
      // Nothing was half-done.
      expect(names((await getAgent(agent.id)).extraction_config.keys)).toEqual(['b']);
      expect(names((await getSet(set.id)).keys)).toEqual(['a']);
      // Once the other change is over, the retry goes through.
      const retry = await fromAgent({ agent_id: agent.id, set_id: set.id });
      expect(retry.status).toBe(200);
      expect(names(retry.body.data.keys)).toEqual(['a', 'b']);
    });

    it('answers 409 WRITE_CONFLICT to other extraction-key changes of a locked agent or set', async () => {
      const set = await createSet([k('a')]);
      const agent = await agentWithKeys([k('b')]);
      const inline = await whileLocked('agents', agent.id, () =>
        api(`/agent/${agent.id}`, { method: 'PUT', key, body: { extraction_config: { keys: [k('c')] } } }),
      );
      expect(inline.body.error?.code).toBe('WRITE_CONFLICT');
      const attach = await whileLocked('extraction_sets', set.id, () =>
        api(`/agent/${agent.id}/extraction-sets/${set.id}`, { method: 'POST', key }),
      );
      expect(attach.body.error?.code).toBe('WRITE_CONFLICT');
      const patch = await whileLocked('extraction_sets', set.id, () =>
        api(`/extraction-sets/${set.id}`, { method: 'PATCH', key, body: { keys: [k('z')] } }),
      );
      expect(patch.body.error?.code).toBe('WRITE_CONFLICT');
    });

    it('loses no key when many agents merge into one set at the same time', async () => {
      const set = await createSet([k('base')]);
      const agents = [];
      for (let i = 0; i < 8; i++) agents.push(await agentWithKeys([k(`agent${i}_x`), k(`agent${i}_y`)]));
      const results = await Promise.all(agents.map((a) => fromAgent({ agent_id: a.id, set_id: set.id })));
      for (const r of results) {
        expect(r.status === 200 || (r.status === 409 && r.body.error.code === 'WRITE_CONFLICT')).toBe(true);
      }
      expect(results.some((r) => r.status === 200)).toBe(true);
      // Every key is in exactly one place: the set (moved) or its agent (refused, still inline).
      const setKeys = names((await getSet(set.id)).keys);
      expect(new Set(setKeys).size).toBe(setKeys.length);
      for (const [i, a] of agents.entries()) {
        const inline = names((await getAgent(a.id)).extraction_config.keys);
        const mine = [`agent${i}_x`, `agent${i}_y`];
        if (results[i].status === 200) {
          expect(inline).toEqual([]);
          expect(setKeys).toEqual(expect.arrayContaining(mine));
        } else {
          expect(inline).toEqual(mine);
          expect(setKeys).not.toEqual(expect.arrayContaining([mine[0]]));
        }
      }
      expect(setKeys).toHaveLength(1 + 2 * results.filter((r) => r.status === 200).length);
    });

    it('lets one of two racing promotions of the same agent win and the other conflict or find nothing left', async () => {
      const agent = await agentWithKeys([k('p'), k('q')]);
      const [a, b] = await Promise.all([
        fromAgent({ agent_id: agent.id, name: uniqueName('Race A') }),
        fromAgent({ agent_id: agent.id, name: uniqueName('Race B') }),
      ]);
      const wins = [a, b].filter((r) => r.status === 200);
      expect(wins.length).toBeGreaterThanOrEqual(1);
      for (const r of [a, b]) if (r.status !== 200) expect(r.body.error.code).toBe('WRITE_CONFLICT');
      // p and q went into exactly one set.
      const withKeys = wins.filter((w) => w.body.data.keys.length > 0);
      expect(withKeys).toHaveLength(1);
      expect(names(withKeys[0].body.data.keys)).toEqual(['p', 'q']);
      expect((await getAgent(agent.id)).extraction_config.keys).toEqual([]);
    });
  });
});
