// Projects through the gateway: CRUD and its validation, the default project (always listed, renamable, never
// deleted), the delete rule (not while it holds agents), the per-account limit, tenancy on every route and
// as a filter or an agent's project_id, and the project_id filters of GET /agents and GET /campaigns.
import { randomUUID } from 'node:crypto';
import { api } from '../../support';
import { createAgent, newPartner, partnerKey, UUID } from '../agents/agent-fixtures';
import { CampaignsPartner } from '../campaigns/campaign-fixtures';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const PROJECT_FIELDS = ['id', 'name', 'description', 'is_default', 'agent_count', 'created_at', 'updated_at'];

async function createProject(key: string, body: Record<string, unknown> = {}): Promise<Any> {
  const res = await api('/projects', { method: 'POST', key, body: { name: 'Sales', ...body } });
  if (res.status !== 200)
    throw new Error(`POST /projects answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Every project of the account, following the cursor. */
async function allProjects(key: string, limit = 100): Promise<Any[]> {
  const all: Any[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await api(`/projects${query}`, { key });
    expect(res.status).toBe(200);
    all.push(...res.body.data.projects);
    cursor = res.body.data.next_cursor;
  } while (cursor);
  return all;
}

async function defaultProject(key: string): Promise<Any> {
  return (await allProjects(key)).find((p) => p.is_default);
}

describe('projects', () => {
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    key = await partnerKey();
    otherKey = await partnerKey();
  });

  describe('CRUD', () => {
    it('creates, reads, lists, updates and deletes a project', async () => {
      const created = await createProject(key, { name: 'Support line', description: 'Inbound support' });
      expect(Object.keys(created).sort()).toEqual([...PROJECT_FIELDS].sort());
      expect(created).toMatchObject({
        name: 'Support line',
        description: 'Inbound support',
        is_default: false,
        agent_count: 0,
      });
      expect(created.id).toMatch(UUID);

      const got = await api(`/projects/${created.id}`, { key });
      expect(got.status).toBe(200);
      expect(got.body.data).toEqual(created);

      const listed = await allProjects(key);
      expect(listed.map((p) => p.id)).toContain(created.id);

      const patched = await api(`/projects/${created.id}`, {
        method: 'PATCH',
        key,
        body: { name: 'Support' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ name: 'Support', description: 'Inbound support' });
      const cleared = await api(`/projects/${created.id}`, {
        method: 'PATCH',
        key,
        body: { description: null },
      });
      expect(cleared.body.data).toMatchObject({ name: 'Support', description: null });

      const deleted = await api(`/projects/${created.id}`, { method: 'DELETE', key });
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toEqual({ id: created.id, message: 'Project deleted' });
      expect((await api(`/projects/${created.id}`, { key })).status).toBe(404);
      expect((await allProjects(key)).map((p) => p.id)).not.toContain(created.id);
      expect((await api(`/projects/${created.id}`, { method: 'DELETE', key })).status).toBe(404);
    });

    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'ok', description: 'd'.repeat(501) }, 'description'],
      [{ name: 'ok', description: 7 }, 'description'],
    ])('refuses %j with VALIDATION_ERROR naming %s', async (body, field) => {
      const res = await api('/projects', { method: 'POST', key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: Any) => d.field)).toContain(field);
    });

    it('accepts a name of exactly 100 characters and refuses a bad PATCH', async () => {
      const p = await createProject(key, { name: 'n'.repeat(100) });
      expect(p.name).toHaveLength(100);
      const res = await api(`/projects/${p.id}`, { method: 'PATCH', key, body: { name: '' } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: Any) => d.field)).toContain('name');
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await api(`/projects/${id}`, { key });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    });

    it('pages with the cursor', async () => {
      const k = await partnerKey();
      for (const name of ['a', 'b', 'c']) await createProject(k, { name });
      const pages = await allProjects(k, 2);
      expect(pages.map((p) => p.name)).toEqual(['Default project', 'a', 'b', 'c']);
    });
  });

  describe('the default project', () => {
    it('is there on a new account, once, can be renamed and never deleted', async () => {
      const k = await partnerKey();
      const first = await allProjects(k);
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ name: 'Default project', is_default: true, agent_count: 0 });
      expect(await allProjects(k)).toEqual(first);

      const renamed = await api(`/projects/${first[0].id}`, {
        method: 'PATCH',
        key: k,
        body: { name: 'Main' },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({ name: 'Main', is_default: true });

      const res = await api(`/projects/${first[0].id}`, { method: 'DELETE', key: k });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('INVALID_STATE');
      expect(res.body.error.message).toMatch(/default project/);
    });

    it('holds agents created without project_id, and its agent_count counts them', async () => {
      const k = await partnerKey();
      const agent = await createAgent(k);
      const def = await defaultProject(k);
      expect(agent.project_id).toBe(def.id);
      expect(def.agent_count).toBe(1);
    });
  });

  describe('agents in projects', () => {
    it('creates an agent in a project, moves it, and refuses a delete while the project holds it', async () => {
      const k = await partnerKey();
      const sales = await createProject(k, { name: 'Sales' });
      const support = await createProject(k, { name: 'Support' });
      const agent = await createAgent(k, { project_id: sales.id });
      expect(agent.project_id).toBe(sales.id);
      expect((await api(`/projects/${sales.id}`, { key: k })).body.data.agent_count).toBe(1);

      const refused = await api(`/projects/${sales.id}`, { method: 'DELETE', key: k });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('INVALID_STATE');
      expect(refused.body.error.message).toMatch(/holds 1 agent/);

      const moved = await api(`/agent/${agent.id}`, {
        method: 'PUT',
        key: k,
        body: { project_id: support.id },
      });
      expect(moved.status).toBe(200);
      expect(moved.body.data.project_id).toBe(support.id);
      expect((await api(`/projects/${sales.id}`, { key: k })).body.data.agent_count).toBe(0);
      expect((await api(`/projects/${support.id}`, { key: k })).body.data.agent_count).toBe(1);

      expect((await api(`/projects/${sales.id}`, { method: 'DELETE', key: k })).status).toBe(200);
      // A deleted project takes no agents.
      const intoDeleted = await api(`/agent/${agent.id}`, {
        method: 'PUT',
        key: k,
        body: { project_id: sales.id },
      });
      expect(intoDeleted.status).toBe(400);
      expect(intoDeleted.body.error.details.map((d: Any) => d.field)).toContain('project_id');

      // Deleting the agent empties its project, which can then be deleted.
      expect((await api(`/agent/${agent.id}`, { method: 'DELETE', key: k })).status).toBe(200);
      expect((await api(`/projects/${support.id}`, { method: 'DELETE', key: k })).status).toBe(200);
    });

    it('filters GET /agents by project_id, exactly', async () => {
      const k = await partnerKey();
      const a = await createProject(k, { name: 'A' });
      const b = await createProject(k, { name: 'B' });
      const inA = [await createAgent(k, { project_id: a.id }), await createAgent(k, { project_id: a.id })];
      const inB = await createAgent(k, { project_id: b.id });
      const inDefault = await createAgent(k);

      const listA = await api(`/agent?project_id=${a.id}`, { key: k });
      expect(listA.status).toBe(200);
      expect(listA.body.data.agents.map((x: Any) => x.id).sort()).toEqual(inA.map((x) => x.id).sort());
      const listB = await api(`/agent?project_id=${b.id}`, { key: k });
      expect(listB.body.data.agents.map((x: Any) => x.id)).toEqual([inB.id]);
      const def = await defaultProject(k);
      const listDefault = await api(`/agent?project_id=${def.id}`, { key: k });
      expect(listDefault.body.data.agents.map((x: Any) => x.id)).toEqual([inDefault.id]);

      // An empty project of the account: an empty page, not an error.
      const empty = await createProject(k, { name: 'Empty' });
      const none = await api(`/agent?project_id=${empty.id}`, { key: k });
      expect(none.status).toBe(200);
      expect(none.body.data.agents).toEqual([]);
    });
  });

  describe('campaigns by project', () => {
    it('filters GET /campaigns by its agent’s project, following an agent that moves', async () => {
      const partner = await CampaignsPartner.create();
      const k = partner.key;
      const a = await createProject(k, { name: 'A' });
      const b = await createProject(k, { name: 'B' });
      const agentA = await createAgent(k, { project_id: a.id });
      const agentB = await createAgent(k, { project_id: b.id });
      const cA = await partner.createCampaign({ agent_id: agentA.id });
      const cB = await partner.createCampaign({ agent_id: agentB.id });
      const cDefault = await partner.createCampaign(); // the fixture's agent, in the default project

      const ids = async (projectId: string) => {
        const res = await api(`/campaigns?project_id=${projectId}`, { key: k });
        expect(res.status).toBe(200);
        return res.body.data.campaigns.map((c: Any) => c.campaign_id).sort();
      };
      expect(await ids(a.id)).toEqual([cA.campaign_id]);
      expect(await ids(b.id)).toEqual([cB.campaign_id]);
      expect(await ids((await defaultProject(k)).id)).toEqual([cDefault.campaign_id]);

      const moved = await api(`/agent/${agentB.id}`, { method: 'PUT', key: k, body: { project_id: a.id } });
      expect(moved.status).toBe(200);
      expect(await ids(a.id)).toEqual([cA.campaign_id, cB.campaign_id].sort());
      expect(await ids(b.id)).toEqual([]);

      const bad = await api('/campaigns?project_id=nope', { key: k });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('tenancy', () => {
    it('answers 404 for another account’s project on every route and as a filter, 400 as an agent’s project', async () => {
      const theirs = await createProject(otherKey, { name: 'Theirs' });
      const theirDefault = await defaultProject(otherKey);
      for (const id of [theirs.id, theirDefault.id]) {
        for (const [method, body] of [
          ['GET', undefined],
          ['PATCH', { name: 'Mine now' }],
          ['DELETE', undefined],
        ] as const) {
          const res = await api(`/projects/${id}`, { method, key, body });
          expect(res.status).toBe(404);
          expect(res.body.error.code).toBe('NOT_FOUND');
        }
        for (const path of [`/agent?project_id=${id}`, `/campaigns?project_id=${id}`]) {
          const res = await api(path, { key });
          expect(res.status).toBe(404);
          expect(res.body.error.code).toBe('NOT_FOUND');
        }
        // The agent rules: a reference that is not the account's is a field error (400, details name it).
        const created = await api('/agent', {
          method: 'POST',
          key,
          body: {
            agent_name: `Agent ${randomUUID().slice(0, 8)}`,
            prompt: 'You are a polite assistant.',
            voice_id: '72158370-d269-49a5-ae65-8f33fe3b890b',
            agent_type: 'outbound',
            project_id: id,
          },
        });
        expect(created.status).toBe(400);
        expect(created.body.error.code).toBe('VALIDATION_ERROR');
        expect(created.body.error.details).toEqual([
          { field: 'project_id', message: 'project_id is not a project of this account' },
        ]);
      }
      const mine = await createAgent(key);
      const moved = await api(`/agent/${mine.id}`, { method: 'PUT', key, body: { project_id: theirs.id } });
      expect(moved.status).toBe(400);
      expect(moved.body.error.details.map((d: Any) => d.field)).toEqual(['project_id']);
      // Nothing changed on their side.
      expect((await api(`/projects/${theirs.id}`, { key: otherKey })).body.data.name).toBe('Theirs');
      expect((await allProjects(key)).map((p) => p.id)).not.toContain(theirs.id);
    });
  });

  describe('concurrency', () => {
    it('never leaves a live agent in a deleted project when a move and the delete race', async () => {
      const k = await partnerKey();
      for (let round = 0; round < 5; round++) {
        const target = await createProject(k, { name: `Race ${round}` });
        const agents = [await createAgent(k), await createAgent(k)];
        const [del, ...moves] = await Promise.all([
          api(`/projects/${target.id}`, { method: 'DELETE', key: k }),
          ...agents.map((a) =>
            api(`/agent/${a.id}`, { method: 'PUT', key: k, body: { project_id: target.id } }),
          ),
        ]);
        const movedIn = moves.filter((m) => m.status === 200).length;
        if (del.status === 200) {
          // Deleted first: every move after it was refused as a reference that is not the account's.
          expect(movedIn).toBe(0);
          const listed = await api(`/agent?project_id=${target.id}`, { key: k });
          expect(listed.status).toBe(404);
        } else {
          expect(del.status).toBe(409);
          expect(movedIn).toBeGreaterThan(0);
          expect((await api(`/projects/${target.id}`, { key: k })).body.data.agent_count).toBe(movedIn);
        }
        for (const a of agents) await api(`/agent/${a.id}`, { method: 'DELETE', key: k });
      }
    });

    it('lets concurrent creations pass the limit by none', async () => {
      const k = await partnerKey();
      for (let i = 1; i < 97; i++) await createProject(k, { name: `P${i}` });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          api('/projects', { method: 'POST', key: k, body: { name: `C${i}` } }),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
      expect(await allProjects(k)).toHaveLength(100);
    });
  });

  describe('limits', () => {
    it('allows 100 projects per account, the default one included (429 LIMIT_REACHED)', async () => {
      const { key: k } = await newPartner();
      for (let i = 1; i < 100; i++) await createProject(k, { name: `P${i}` });
      const over = await api('/projects', { method: 'POST', key: k, body: { name: 'One too many' } });
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('LIMIT_REACHED');
      expect(await allProjects(k)).toHaveLength(100);
      // A deleted project frees its place.
      const last = (await allProjects(k)).find((p) => p.name === 'P99');
      expect((await api(`/projects/${last.id}`, { method: 'DELETE', key: k })).status).toBe(200);
      await createProject(k, { name: 'Again' });
    });
  });
});
