import { VapApiError } from './errors';
import { pageItems } from './pagination';
import { ScriptedServer, sendError, sendJson } from './testing/scripted-server';
import { VapClient } from './vap-client';

const AGENTS = Array.from({ length: 7 }, (_, i) => ({ id: `a${i}`, agent_name: `Agent ${i}` }));

describe('cursor pagination (against a real HTTP server)', () => {
  const server = new ScriptedServer();
  let sdk: VapClient;

  beforeAll(async () => {
    const baseUrl = await server.start();
    sdk = new VapClient({ baseUrl, apiKey: 'rg_live_test', retry: { baseDelayMs: 5 } });
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.requests.length = 0;
    // /api/v2/agent pages of `limit`, the cursor being the index of the next agent.
    server.handler = (req, res) => {
      const url = new URL(req.url, 'http://x');
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const agents = AGENTS.slice(from, from + limit);
      const next = from + limit < AGENTS.length ? String(from + limit) : null;
      sendJson(res, 200, { success: true, data: { agents, next_cursor: next } });
    };
  });

  const queries = () => server.requests.map((r) => new URL(r.url, 'http://x').searchParams);

  it('iterates every item across pages, following next_cursor, keeping the filters', async () => {
    const seen: string[] = [];
    for await (const agent of sdk.paginate((o) => sdk.agents.list(o), {
      query: { limit: 3, search: 'Agent' },
    })) {
      seen.push(agent.id);
    }
    expect(seen).toEqual(AGENTS.map((a) => a.id));
    expect(queries().map((q) => q.get('cursor'))).toEqual([null, '3', '6']);
    expect(queries().every((q) => q.get('limit') === '3' && q.get('search') === 'Agent')).toBe(true);
  });

  it('starts from the cursor given', async () => {
    const ids: string[] = [];
    for await (const agent of sdk.paginate((o) => sdk.agents.list(o), { query: { limit: 2, cursor: '4' } }))
      ids.push(agent.id);
    expect(ids).toEqual(['a4', 'a5', 'a6']);
  });

  it('fetches a page only when the loop gets to it', async () => {
    for await (const agent of sdk.paginate((o) => sdk.agents.list(o), { query: { limit: 3 } })) {
      expect(agent.id).toBe('a0');
      break;
    }
    expect(server.requests).toHaveLength(1);
  });

  it('yields whole pages with pages()', async () => {
    const sizes: number[] = [];
    for await (const page of sdk.pages((o) => sdk.agents.list(o), { query: { limit: 4 } }))
      sizes.push(page.agents.length);
    expect(sizes).toEqual([4, 3]);
  });

  it('works with no options at all (one page)', async () => {
    const all = [];
    for await (const agent of sdk.paginate((o) => sdk.agents.list(o))) all.push(agent);
    expect(all).toHaveLength(7);
  });

  it('stops on a cursor that comes back twice instead of looping', async () => {
    server.handler = (_req, res) =>
      sendJson(res, 200, { success: true, data: { agents: [AGENTS[0]], next_cursor: 'same' } });
    const run = async () => {
      for await (const _agent of sdk.paginate((o) => sdk.agents.list(o))) void _agent;
    };
    await expect(run()).rejects.toThrow('the cursor same came back twice');
    expect(server.requests).toHaveLength(2);
  });

  it('throws the typed error of a failed page', async () => {
    server.handler = (_req, res) =>
      sendError(res, 400, 'VALIDATION_ERROR', {}, { details: [{ field: 'cursor', message: 'bad cursor' }] });
    const run = async () => {
      for await (const _agent of sdk.paginate((o) => sdk.agents.list(o), { query: { cursor: 'forged' } }))
        void _agent;
    };
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VapApiError);
    expect((error as VapApiError).details).toEqual([{ field: 'cursor', message: 'bad cursor' }]);
  });

  it('takes the one array of a page as its items', () => {
    expect(pageItems({ calls: [1, 2], next_cursor: null })).toEqual([1, 2]);
    expect(() => pageItems({ next_cursor: null } as never)).toThrow('exactly one array');
  });
});
