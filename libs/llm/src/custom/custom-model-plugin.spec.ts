import { CONNECT_FAILED_MESSAGE, partnerRequestSignature } from '@vap/egress';
import type { ChatDelta } from '../chat-model';
import { LlmError } from '../llm-error';
import { describeChatAdapterContract, describeKeyCheckContract } from '../testing/chat-adapter-contract';
import { FakeChatServer } from '../testing/fake-chat-server';
import { customModelPlugin } from '.';

const SECRET = 'whsec_model_server_secret';

const bearer = (headers: Record<string, unknown>, key: string) => {
  expect(headers.authorization).toBe(`Bearer ${key}`);
};

/** The partner's base URL has a path of its own; nothing is added to it but the endpoint. */
const partnerBase = (rootUrl: string) => `${rootUrl}/partner/llm/`;

describeChatAdapterContract('Custom model server', {
  create: (target, p) =>
    customModelPlugin.create({
      baseUrl: partnerBase(target.rootUrl),
      model: 'acme-support-v2',
      signingSecret: SECRET,
      allowPrivateNetworks: true,
      ...p,
    }),
  model: 'acme-support-v2',
  chatPath: '/partner/llm/chat/completions',
  expectKey: bearer,
  maxTokensField: 'max_tokens',
  asksUsage: true,
});

describeKeyCheckContract('Custom model server', {
  check: (target, apiKey, timeoutMs) =>
    customModelPlugin.checkKey({
      baseUrl: partnerBase(target.rootUrl),
      apiKey,
      timeoutMs,
      signingSecret: SECRET,
      allowPrivateNetworks: true,
    }),
  path: '/partner/llm/models',
  expectKey: bearer,
  alsoOk: [404, 405],
});

async function collect(deltas: AsyncIterable<ChatDelta>): Promise<ChatDelta[]> {
  const out: ChatDelta[] = [];
  for await (const d of deltas) out.push(d);
  return out;
}

describe("Custom model server: what the partner's server gets", () => {
  let fake: FakeChatServer;

  beforeAll(async () => {
    fake = await FakeChatServer.start();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("sends the call's id and variables with the transcript so far, signed as custom functions are", async () => {
    fake.script({
      kind: 'reply',
      toolCalls: [{ id: 'call_x', name: 'book_table', arguments: { guests: 4 } }],
    });
    const model = customModelPlugin.create({
      baseUrl: partnerBase(fake.rootUrl),
      apiKey: '',
      model: 'acme-support-v2',
      timeoutMs: 2000,
      signingSecret: SECRET,
      allowPrivateNetworks: true,
    });
    const before = Date.now();
    const deltas = await collect(
      model.stream({
        messages: [
          { role: 'system', content: 'You book tables.' },
          { role: 'user', content: 'A table for four, please.' },
        ],
        tools: [{ name: 'book_table', description: 'Books a table', parameters: { type: 'object' } }],
        call: { callId: 'call_8f2', variables: { customer: 'Asha', tier: 'gold' } },
      }),
    );
    expect(deltas).toEqual([
      { type: 'tool_call', call: { id: 'call_x', name: 'book_table', arguments: { guests: 4 } } },
    ]);
    const req = fake.last;
    expect(req.body.call).toEqual({ id: 'call_8f2', variables: { customer: 'Asha', tier: 'gold' } });
    expect(req.body.messages).toEqual([
      { role: 'system', content: 'You book tables.' },
      { role: 'user', content: 'A table for four, please.' },
    ]);
    // No key given: no bearer token.
    expect(req.headers.authorization).toBeUndefined();
    const timestamp = String(req.headers['x-vap-timestamp']);
    expect(Number(timestamp)).toBeGreaterThanOrEqual(before);
    expect(req.headers['x-vap-signature']).toBe(partnerRequestSignature(SECRET, timestamp, req.raw));
  });

  it('signs the key check over an empty body', async () => {
    fake.script({ kind: 'json', status: 200, json: { data: [] } });
    await customModelPlugin.checkKey({
      baseUrl: partnerBase(fake.rootUrl),
      apiKey: '',
      timeoutMs: 2000,
      signingSecret: SECRET,
      allowPrivateNetworks: true,
    });
    const timestamp = String(fake.last.headers['x-vap-timestamp']);
    expect(fake.last.headers['x-vap-signature']).toBe(partnerRequestSignature(SECRET, timestamp, ''));
    expect(fake.last.headers.authorization).toBeUndefined();
  });

  it("refuses a server on the platform's own network unless private networks are allowed, and sends nothing", async () => {
    fake.clear();
    for (const host of [fake.rootUrl, fake.rootUrl.replace('127.0.0.1', 'localhost')]) {
      const model = customModelPlugin.create({
        baseUrl: partnerBase(host),
        apiKey: 'partner-key',
        model: 'm',
        timeoutMs: 2000,
        signingSecret: SECRET,
        allowPrivateNetworks: false,
      });
      const err = await collect(
        model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmError);
      expect((err as LlmError).failure).toBe('network');
      // One text for every refusal: nothing of what the name resolved to.
      expect((err as LlmError).message).toBe(
        `the model server could not be reached: ${CONNECT_FAILED_MESSAGE}`,
      );
      const check = await customModelPlugin.checkKey({
        baseUrl: partnerBase(host),
        apiKey: 'partner-key',
        timeoutMs: 2000,
        signingSecret: SECRET,
        allowPrivateNetworks: false,
      });
      expect(check).toEqual({ ok: false, reason: 'unreachable', message: CONNECT_FAILED_MESSAGE });
    }
    expect(fake.requests).toEqual([]);
  });

  it('follows WEBHOOK_ALLOW_PRIVATE_NETWORKS when the setting is not passed', async () => {
    const saved = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    try {
      for (const [value, reaches] of [
        ['true', true],
        ['false', false],
      ] as const) {
        process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = value;
        fake.clear();
        fake.script({ kind: 'reply', text: ['Hi.'] });
        const model = customModelPlugin.create({
          baseUrl: partnerBase(fake.rootUrl),
          apiKey: '',
          model: 'm',
          timeoutMs: 2000,
          signingSecret: SECRET,
        });
        const result = await collect(
          model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }),
        ).catch((e: unknown) => e);
        if (reaches) expect(result).toEqual([{ type: 'text', text: 'Hi.' }]);
        else expect(result).toBeInstanceOf(LlmError);
        expect(fake.requests.length).toBe(reaches ? 1 : 0);
      }
    } finally {
      if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
      else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = saved;
    }
  });

  it('refuses a URL that is not http(s) or carries credentials', async () => {
    for (const baseUrl of ['ftp://models.example.com', 'https://user:pass@models.example.com']) {
      const model = customModelPlugin.create({
        baseUrl,
        apiKey: '',
        model: 'm',
        timeoutMs: 2000,
        signingSecret: SECRET,
      });
      const err = await collect(
        model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmError);
      expect((err as LlmError).failure).toBe('network');
    }
  });
});
