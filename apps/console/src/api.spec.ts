import { allPages, ApiError, consoleApi, request, setCsrfToken, v2 } from './api';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Answers each request with the next of `answers` (status and body text), recording what was sent. */
function platform(...answers: ([number, string] | Error)[]): Sent[] {
  const sent: Sent[] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    sent.push({
      url: String(url),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body,
    });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${String(url)}`);
    if (answer instanceof Error) throw answer;
    return new Response(answer[1], { status: answer[0] });
  });
  return sent;
}

const ok = (data: unknown): [number, string] => [200, JSON.stringify({ success: true, data })];

afterEach(() => {
  jest.restoreAllMocks();
  setCsrfToken(null);
});

describe('request', () => {
  it('unwraps the envelope of an answer', async () => {
    platform(ok({ id: 'agt_1' }));
    await expect(v2.get('/agent/agt_1')).resolves.toEqual({ id: 'agt_1' });
  });

  it('reaches the public routes under /console/api/v2 and its own under /console/api, with the query it was given', async () => {
    const sent = platform(ok([]), ok({}));
    await v2.get('/calls', { status: 'completed', limit: 25, cursor: undefined, agent_id: null, q: '' });
    await consoleApi.get('/session');
    expect(sent.map((s) => s.url)).toEqual([
      '/console/api/v2/calls?status=completed&limit=25',
      '/console/api/session',
    ]);
  });

  it("sends a change as JSON with the session's CSRF token, and a read without it", async () => {
    setCsrfToken('csrf-1');
    const sent = platform(ok({}), ok({}));
    await v2.post('/agent', { agent_name: 'Maya' });
    await v2.get('/agent');
    expect(sent[0]).toMatchObject({
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': 'csrf-1' },
      body: '{"agent_name":"Maya"}',
    });
    expect(sent[1].headers).toEqual({ accept: 'application/json' });
  });

  it('sends a raw body with its own content type', async () => {
    const sent = platform(ok({}));
    await request('PUT', '/v2/documents/doc_1', { raw: 'a,b\n', contentType: 'text/csv' });
    expect(sent[0]).toMatchObject({ body: 'a,b\n', headers: { 'content-type': 'text/csv' } });
  });

  it("throws the API's error with its status, code, message and field details", async () => {
    platform([
      400,
      JSON.stringify({
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: 'Check the fields',
          details: [{ field: 'prompt', message: 'is required' }],
        },
      }),
    ]);
    const error = await v2.post('/agent', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'Check the fields' });
    expect((error as ApiError).fieldMessage('prompt')).toBe('is required');
    expect((error as ApiError).fieldMessage('agent_name')).toBeUndefined();
  });

  it('names the status of an answer that is not the envelope', async () => {
    platform([502, '<html>Bad gateway</html>']);
    await expect(v2.get('/agent')).rejects.toMatchObject({
      status: 502,
      code: 'INTERNAL_ERROR',
      message: 'The request failed (HTTP 502).',
      details: [],
    });
  });

  it('treats an envelope that says it failed as an error, even with 200', async () => {
    platform([200, JSON.stringify({ success: false, error: { code: 'CONFLICT', message: 'Taken' } })]);
    await expect(v2.get('/agent')).rejects.toMatchObject({ status: 200, code: 'CONFLICT', message: 'Taken' });
  });

  it('says when the platform cannot be reached', async () => {
    platform(new TypeError('fetch failed'));
    await expect(v2.get('/agent')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('retries a refused change once with the renewed session token', async () => {
    setCsrfToken('old');
    const sent = platform(
      [403, JSON.stringify({ success: false, error: { code: 'FORBIDDEN', message: 'CSRF' } })],
      ok({ csrf_token: 'new' }),
      ok({ id: 'agt_1' }),
    );
    await expect(v2.patch('/agent/agt_1', { prompt: 'p' })).resolves.toEqual({ id: 'agt_1' });
    expect(sent.map((s) => [s.method, s.url, s.headers['x-csrf-token']])).toEqual([
      ['PATCH', '/console/api/v2/agent/agt_1', 'old'],
      ['GET', '/console/api/session', undefined],
      ['PATCH', '/console/api/v2/agent/agt_1', 'new'],
    ]);
    // The renewed token is the one later changes carry.
    const next = platform(ok({}));
    await v2.del('/agent/agt_1');
    expect(next[0].headers['x-csrf-token']).toBe('new');
  });

  it('does not retry a refusal the session token does not explain', async () => {
    setCsrfToken('same');
    const sent = platform(
      [403, JSON.stringify({ success: false, error: { code: 'FORBIDDEN', message: 'Needs agents:write' } })],
      ok({ csrf_token: 'same' }),
    );
    await expect(v2.del('/agent/agt_1')).rejects.toMatchObject({
      status: 403,
      message: 'Needs agents:write',
    });
    expect(sent).toHaveLength(2);
  });

  it('does not retry a refused read', async () => {
    setCsrfToken('old');
    const sent = platform([
      403,
      JSON.stringify({ success: false, error: { code: 'FORBIDDEN', message: 'No' } }),
    ]);
    await expect(v2.get('/agent')).rejects.toMatchObject({ status: 403 });
    expect(sent).toHaveLength(1);
  });
});

describe('allPages', () => {
  it('follows the cursor until the last page', async () => {
    const cursors: (string | undefined)[] = [];
    const pages: Record<string, { items: number[]; next: string | null }> = {
      first: { items: [1, 2], next: 'c2' },
      c2: { items: [3], next: 'c3' },
      c3: { items: [4, 5], next: null },
    };
    const items = await allPages(async (cursor) => {
      cursors.push(cursor);
      return pages[cursor ?? 'first'];
    });
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(cursors).toEqual([undefined, 'c2', 'c3']);
  });

  it('stops at the maximum, even when there are more pages', async () => {
    let asked = 0;
    const items = await allPages(async () => {
      asked += 1;
      // Four pages in all: without the bound, twelve items.
      return { items: [asked * 10, asked * 10 + 1, asked * 10 + 2], next: asked < 4 ? 'more' : null };
    }, 5);
    expect(items).toEqual([10, 11, 12, 20, 21]);
    expect(asked).toBe(2);
  });

  it('passes on the error of a page', async () => {
    await expect(
      allPages(async () => {
        throw new ApiError(500, 'INTERNAL_ERROR', 'down');
      }),
    ).rejects.toMatchObject({ message: 'down' });
  });
});
