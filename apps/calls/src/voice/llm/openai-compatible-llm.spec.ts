import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { EffectiveExtractionKey } from '@vap/contracts';
import { OpenAiCompatibleLlm } from './openai-compatible-llm';

/** A local chat-completions server that records requests and answers what the test sets. */
function fakeServer(answer: (body: Record<string, unknown>) => { status: number; json: unknown }) {
  const requests: { headers: IncomingMessage['headers']; body: Record<string, unknown>; url: string }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ headers: req.headers, body, url: req.url ?? '' });
      const out = answer(body);
      res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.json));
    });
  });
  return { server, requests };
}

const keys: EffectiveExtractionKey[] = [
  {
    name: 'interested',
    type: 'boolean',
    description: 'is the callee interested',
    source: 'inline',
    set_id: null,
  },
  { name: 'seats', type: 'number', description: 'seats needed', source: 'set', set_id: 'exs_1' },
];

describe('OpenAiCompatibleLlm against a local server', () => {
  let base: string;
  let fake: ReturnType<typeof fakeServer>;
  let reply: { status: number; json: unknown };

  beforeAll(async () => {
    fake = fakeServer(() => reply);
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    await new Promise((r) => fake.server.close(r));
  });

  const llm = () =>
    new OpenAiCompatibleLlm({ baseUrl: base, apiKey: 'sk-test', model: 'test-model', timeoutMs: 2000 });

  it('sends the prompt, knowledge and history as chat messages and returns the reply', async () => {
    reply = { status: 200, json: { choices: [{ message: { content: ' Sure, the plan costs 10. ' } }] } };
    const text = await llm().reply({
      prompt: 'You are Maya.',
      history: [{ role: 'bot', content: 'Hello!', timestamp: 't' }],
      userText: 'Price?',
      knowledge: 'Plan costs 10.',
    });
    expect(text).toBe('Sure, the plan costs 10.');
    const req = fake.requests[fake.requests.length - 1];
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body.model).toBe('test-model');
    const messages = req.body.messages as { role: string; content: string }[];
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('You are Maya.');
    expect(messages[0].content).toContain('Plan costs 10.');
    expect(messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Price?' },
    ]);
  });

  it('extracts a JSON object, keeping only the schema keys, coerced to their types', async () => {
    reply = {
      status: 200,
      json: { choices: [{ message: { content: '{"interested": "yes", "seats": "12", "extra": 1}' } }] },
    };
    const values = await llm().extract({
      keys,
      transcript: [{ role: 'user', content: 'Yes, 12 seats', timestamp: 't' }],
      variables: {},
    });
    expect(values).toEqual({ interested: true, seats: 12 });
    expect(fake.requests[fake.requests.length - 1].body.response_format).toEqual({ type: 'json_object' });
  });

  it('fails on an error status or an answer without JSON', async () => {
    reply = { status: 500, json: { error: 'boom' } };
    await expect(llm().extract({ keys, transcript: [], variables: {} })).rejects.toThrow(/500/);
    reply = { status: 200, json: { choices: [{ message: { content: 'no json here' } }] } };
    await expect(llm().extract({ keys, transcript: [], variables: {} })).rejects.toThrow(/JSON/);
  });
});
