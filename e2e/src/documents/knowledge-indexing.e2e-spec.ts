// Linking documents to agents, asynchronous indexing of PDFs and web pages, search, unlinking and tenancy.
import { randomUUID } from 'node:crypto';
import { api } from '../../support';
import {
  createAgent,
  createWebLink,
  link,
  partnerKey,
  pdfWithPages,
  PageServer,
  search,
  settledLink,
  startPageServer,
  uniqueName,
  uploadDocument,
} from './kb-fixtures';

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Line ${i} of the ${topic} section is ordinary filler text.`);

describe('knowledge base: PDF indexing and search', () => {
  let key: string;
  let agent: { id: string };
  let doc: { id: string; name: string };

  beforeAll(async () => {
    key = await partnerKey();
    agent = await createAgent(key, { kb_threshold: 'low' });
    const pdf = await pdfWithPages([
      [
        'Zebracorp refund policy.',
        'Refunds are paid within thirty days to the original card.',
        ...filler('billing', 20),
      ],
      ['Shipping rules.', 'Quokka parcels ship from Pune every Tuesday morning.', ...filler('logistics', 20)],
    ]);
    doc = await uploadDocument(key, pdf, { name: 'Zebracorp handbook' });
    await link(key, agent.id, doc.id);
  });

  it('indexes the linked PDF asynchronously and shows the state on the link', async () => {
    const state = await settledLink(key, agent.id, doc.id);
    expect(state).toMatchObject({
      document_id: doc.id,
      agent_id: agent.id,
      name: 'Zebracorp handbook',
      type: 'pdf',
      status: 'ready',
      index_status: 'indexed',
      index_error: null,
    });
    // Two pages of ~1 000 characters each: several overlapping chunks.
    expect(state.chunk_count).toBeGreaterThanOrEqual(2);
    expect(Date.parse(state.indexed_at)).toBeGreaterThan(Date.parse(state.linked_at) - 1000);
  });

  it('returns ranked chunks containing the known text', async () => {
    const res = await search(key, agent.id, 'when do quokka parcels ship?');
    expect(res.status).toBe(200);
    const { data } = res.body;
    expect(data).toMatchObject({ agent_id: agent.id, threshold: 'low', min_score: 0 });
    expect(data.results.length).toBeGreaterThan(0);
    expect(data.results[0]).toMatchObject({ document_id: doc.id, document_name: 'Zebracorp handbook' });
    expect(data.results[0].content).toContain('Quokka parcels ship from Pune every Tuesday morning.');
    const scores = data.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(data.results[0].formatted).toBe(data.results[0].content);
    expect(data.results[0].summary).toBeUndefined();
    expect(data.context).toContain('Quokka parcels');

    const refund = await search(key, agent.id, 'zebracorp refund card', 1);
    expect(refund.body.data.results).toHaveLength(1);
    expect(refund.body.data.results[0].content).toContain('Refunds are paid within thirty days');
  });

  it('honours phrases and exclusions and finds nothing for unknown words', async () => {
    const phrase = await search(key, agent.id, '"every Tuesday morning"');
    expect(phrase.body.data.results[0].content).toContain('every Tuesday morning');
    const excluded = await search(key, agent.id, 'quokka -pune');
    expect(excluded.body.data.results).toEqual([]);
    const none = await search(key, agent.id, 'xylophone');
    expect(none.body.data).toMatchObject({ results: [], context: '' });
  });

  it('applies kb_threshold: high drops chunks that match little of the query', async () => {
    const query = 'quokka warranty insurance claims helpline';
    const low = await search(key, agent.id, query);
    expect(low.body.data.results.length).toBeGreaterThan(0);
    expect(low.body.data.results[0].score).toBeLessThan(0.45);

    const high = await createAgent(key, { kb_threshold: 'high' });
    await link(key, high.id, doc.id);
    await settledLink(key, high.id, doc.id);
    const strict = await search(key, high.id, query);
    expect(strict.body.data).toMatchObject({ threshold: 'high', min_score: 0.7, results: [] });
    const precise = await search(key, high.id, 'quokka parcels Pune');
    expect(precise.body.data.results[0].score).toBeGreaterThanOrEqual(0.7);

    // null means medium.
    await api(`/agent/${high.id}`, { method: 'PUT', key, body: { kb_threshold: null } });
    const medium = await search(key, high.id, query);
    expect(medium.body.data).toMatchObject({ threshold: 'medium', min_score: 0.45, results: [] });
  });

  it('adds summaries and renders kb_result_format', async () => {
    const formatted = await createAgent(key, {
      kb_threshold: 'low',
      kb_include_summaries: true,
      kb_result_format: '[{rank}] {document_name} ({score}): {content} | {summary} {unknown} {{literal}}',
    });
    await link(key, formatted.id, doc.id);
    await settledLink(key, formatted.id, doc.id);
    const res = await search(key, formatted.id, 'quokka parcels', 2);
    const [first] = res.body.data.results;
    // The document's opening sentences, up to about 300 characters.
    expect(
      first.summary.startsWith(
        'Zebracorp refund policy. Refunds are paid within thirty days to the original card.',
      ),
    ).toBe(true);
    expect(first.summary.length).toBeLessThanOrEqual(300);
    expect(first.formatted).toBe(
      `[1] Zebracorp handbook (${first.score.toFixed(3)}): ${first.content} | ${first.summary} {unknown} {literal}`,
    );
    expect(res.body.data.context.startsWith('[1] Zebracorp handbook')).toBe(true);
  });

  it('validates the search request', async () => {
    for (const body of [{ query: '' }, { query: '   ' }, {}, { query: 'x'.repeat(1001) }]) {
      const res = await api(`/agent/${agent.id}/knowledge/search`, { method: 'POST', key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('query');
    }
    const limit = await api(`/agent/${agent.id}/knowledge/search`, {
      method: 'POST',
      key,
      body: { query: 'x', limit: 21 },
    });
    expect(limit.status).toBe(400);
    expect(limit.body.error.details[0].field).toBe('limit');
  });
});

describe('knowledge base: web links', () => {
  let key: string;
  let agent: { id: string };
  let server: PageServer;

  beforeAll(async () => {
    key = await partnerKey();
    agent = await createAgent(key, { kb_threshold: 'low' });
    server = await startPageServer({
      '/faq': [
        200,
        'text/html; charset=utf-8',
        `<!doctype html><html><head><title>FAQ</title><script>var hiddenScriptWord = "marmoset";</script>
         <style>.x { color: red }</style></head><body><nav><a href="/">Home</a></nav>
         <h1>Frequently asked questions</h1>
         <p>Our <a href="/store">Lemurville store</a> opens at nine and closes at six on weekdays.</p>
         <p>Gift wrapping costs forty rupees.</p></body></html>`,
      ],
      '/notes.txt': [200, 'text/plain', 'Plain notes: the okapi warehouse is in Nagpur.'],
      '/gone': [404, 'text/html', '<p>missing</p>'],
      '/image.png': [200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('crawls the page from a local server when linked, and indexes its text without scripts', async () => {
    const doc = await createWebLink(key, `${server.url}/faq`, 'Store FAQ');
    expect(server.hits).not.toContain('/faq');
    await link(key, agent.id, doc.id);
    const state = await settledLink(key, agent.id, doc.id);
    expect(state).toMatchObject({ type: 'web_link', index_status: 'indexed', url: `${server.url}/faq` });
    expect(server.hits).toContain('/faq');

    const res = await search(key, agent.id, 'when does the Lemurville store open?');
    expect(res.body.data.results[0]).toMatchObject({ document_id: doc.id, document_name: 'Store FAQ' });
    expect(res.body.data.results[0].content).toContain('Lemurville store opens at nine and closes at six');
    expect((await search(key, agent.id, 'marmoset')).body.data.results).toEqual([]);
  });

  it('indexes plain-text pages', async () => {
    const doc = await createWebLink(key, `${server.url}/notes.txt`);
    await link(key, agent.id, doc.id);
    expect((await settledLink(key, agent.id, doc.id)).index_status).toBe('indexed');
    expect((await search(key, agent.id, 'okapi warehouse')).body.data.results[0].content).toContain('Nagpur');
  });

  it.each([
    ['/gone', /HTTP 404/],
    ['/image.png', /image\/png/],
  ])('marks the link failed with the reason when %s cannot be indexed', async (path, reason) => {
    const doc = await createWebLink(key, `${server.url}${path}`);
    await link(key, agent.id, doc.id);
    const state = await settledLink(key, agent.id, doc.id);
    expect(state).toMatchObject({ index_status: 'failed', chunk_count: 0 });
    expect(state.index_error).toMatch(reason);
  });
});

describe('knowledge base: linking rules, unlinking and tenancy', () => {
  let key: string;
  let otherKey: string;

  // A partner per test: each key may make 60 requests a minute.
  beforeEach(async () => {
    [key, otherKey] = await Promise.all([partnerKey(), partnerKey()]);
  });

  it('refuses unknown, foreign and unconfirmed documents and unknown or foreign agents', async () => {
    const agent = await createAgent(key);
    const ready = await uploadDocument(key, await pdfWithPages([['Rules.']]));
    const foreignDoc = await uploadDocument(otherKey, await pdfWithPages([['Foreign.']]));
    const uploading = (
      await api('/documents', {
        method: 'POST',
        key,
        body: { name: 'U', type: 'txt', mime_type: 'text/plain', file_size: 5 },
      })
    ).body.data;
    const post = (agentId: string, body: unknown, k = key) =>
      api(`/agent/${agentId}/documents`, { method: 'POST', key: k, body });

    expect((await post(agent.id, { document_id: randomUUID() })).status).toBe(404);
    expect((await post(agent.id, { document_id: foreignDoc.id })).status).toBe(404);
    const pending = await post(agent.id, { document_id: uploading.id });
    expect(pending.status).toBe(409);
    expect(pending.body.error.code).toBe('INVALID_STATE');
    expect((await post(randomUUID(), { document_id: ready.id })).status).toBe(404);
    expect((await post('not-a-uuid', { document_id: ready.id })).status).toBe(404);
    expect((await post(agent.id, { document_id: ready.id }, otherKey)).status).toBe(404);
    const empty = await post(agent.id, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0].field).toBe('document_id');
    expect((await post(agent.id, { document_ids: ['nope'] })).status).toBe(400);
    // Nothing got linked.
    expect((await api(`/agent/${agent.id}/documents`, { key })).body.data.documents).toEqual([]);
    expect((await api(`/agent/${agent.id}/documents`, { key: otherKey })).status).toBe(404);
    expect((await search(otherKey, agent.id, 'rules')).status).toBe(404);
  });

  it('links several documents at once, and linking again changes nothing', async () => {
    const agent = await createAgent(key);
    const a = await uploadDocument(key, await pdfWithPages([['Aardvark manual.']]));
    const b = await uploadDocument(key, await pdfWithPages([['Bonobo manual.']]));
    const res = await api(`/agent/${agent.id}/documents`, {
      method: 'POST',
      key,
      body: { document_ids: [a.id, b.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.documents.map((d: { document_id: string }) => d.document_id)).toEqual([a.id, b.id]);
    const again = await api(`/agent/${agent.id}/documents`, {
      method: 'POST',
      key,
      body: { document_id: a.id },
    });
    expect(again.body.data.documents).toHaveLength(2);
    // The agent record lists them too.
    const record = await api(`/agent/${agent.id}`, { key });
    expect(record.body.data.documents).toEqual([
      { id: a.id, name: a.name, type: 'pdf', status: 'ready' },
      { id: b.id, name: b.name, type: 'pdf', status: 'ready' },
    ]);
  });

  it('unlinks: the document remains, search stops finding it, a second unlink is 404', async () => {
    const agent = await createAgent(key, { kb_threshold: 'low' });
    const doc = await uploadDocument(key, await pdfWithPages([['The capybara lounge serves chai all day.']]));
    await link(key, agent.id, doc.id);
    await settledLink(key, agent.id, doc.id);
    expect((await search(key, agent.id, 'capybara chai')).body.data.results).toHaveLength(1);

    expect(
      (await api(`/agent/${agent.id}/documents/${doc.id}`, { method: 'DELETE', key: otherKey })).status,
    ).toBe(404);
    const res = await api(`/agent/${agent.id}/documents/${doc.id}`, { method: 'DELETE', key });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toMatch(/unlinked/);
    expect((await api(`/documents/${doc.id}`, { key })).body.data.status).toBe('ready');
    expect((await search(key, agent.id, 'capybara chai')).body.data.results).toEqual([]);
    expect((await api(`/agent/${agent.id}/documents`, { key })).body.data.documents).toEqual([]);

    const twice = await api(`/agent/${agent.id}/documents/${doc.id}`, { method: 'DELETE', key });
    expect(twice.status).toBe(404);
    expect(twice.body.error.code).toBe('NOT_FOUND');
    const never = await api(`/agent/${agent.id}/documents/${randomUUID()}`, { method: 'DELETE', key });
    expect(never.status).toBe(404);

    // Linking again indexes it again.
    await link(key, agent.id, doc.id);
    expect((await settledLink(key, agent.id, doc.id)).index_status).toBe('indexed');
    expect((await search(key, agent.id, 'capybara chai')).body.data.results).toHaveLength(1);
  });

  it("takes a deleted document out of every agent's knowledge base", async () => {
    const agent = await createAgent(key, { kb_threshold: 'low' });
    const doc = await uploadDocument(key, await pdfWithPages([['The pangolin desk handles returns.']]), {
      name: uniqueName('Pangolin'),
    });
    await link(key, agent.id, doc.id);
    await settledLink(key, agent.id, doc.id);
    expect((await api(`/documents/${doc.id}`, { method: 'DELETE', key })).status).toBe(200);
    expect((await search(key, agent.id, 'pangolin returns')).body.data.results).toEqual([]);
    expect((await api(`/agent/${agent.id}/documents`, { key })).body.data.documents).toEqual([]);
  });

  it('answers 404 on every route of a deleted agent', async () => {
    const agent = await createAgent(key);
    const doc = await uploadDocument(key, await pdfWithPages([['Deleted agent.']]));
    await link(key, agent.id, doc.id);
    expect((await api(`/agent/${agent.id}`, { method: 'DELETE', key })).status).toBe(200);
    expect((await api(`/agent/${agent.id}/documents`, { key })).status).toBe(404);
    expect((await search(key, agent.id, 'deleted')).status).toBe(404);
    expect((await api(`/agent/${agent.id}/documents/${doc.id}`, { method: 'DELETE', key })).status).toBe(404);
    expect((await api(`/documents/${doc.id}`, { key })).status).toBe(200);
  });
});
