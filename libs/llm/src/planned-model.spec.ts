import type { ModelPlanEntry } from '@vap/messages';
import { partnerRequestSignature } from '@vap/egress';
import type { ChatDelta } from './chat-model';
import { LlmError } from './llm-error';
import { OfflineChatModel } from './offline-chat-model';
import { createPlannedModel } from './planned-model';
import { FakeChatServer } from './testing/fake-chat-server';

async function collect(deltas: AsyncIterable<ChatDelta>): Promise<ChatDelta[]> {
  const out: ChatDelta[] = [];
  for await (const d of deltas) out.push(d);
  return out;
}

const hi = { messages: [{ role: 'user' as const, content: 'Hello?' }], tools: [] };

describe('createPlannedModel', () => {
  let fake: FakeChatServer;

  beforeAll(async () => {
    fake = await FakeChatServer.start();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('runs the offline engine for an offline entry', () => {
    const model = createPlannedModel({ provider: 'offline', model: 'offline', speechToSpeech: false }, 1000);
    expect(model).toBeInstanceOf(OfflineChatModel);
  });

  it("runs the provider's plugin with the entry's key, model and parameters", async () => {
    const entry: ModelPlanEntry = {
      provider: 'openai',
      model: 'gpt-4.1-mini',
      temperature: 0.3,
      maxTokens: 200,
      topP: 0.8,
      speechToSpeech: false,
      credential: {
        provider: 'openai',
        apiKey: 'sk-account-key-1234',
        baseUrl: fake.baseUrl,
        paidBy: 'account',
      },
    };
    fake.script({ kind: 'reply', text: ['Hi!'], usage: { inputTokens: 9, outputTokens: 2 } });
    const model = createPlannedModel(entry, 2000);
    expect(model.model).toBe('gpt-4.1-mini');
    expect(await collect(model.stream(hi))).toEqual([
      { type: 'text', text: 'Hi!' },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 2 } },
    ]);
    expect(fake.last.headers.authorization).toBe('Bearer sk-account-key-1234');
    expect(fake.last.body).toMatchObject({
      model: 'gpt-4.1-mini',
      temperature: 0.3,
      max_completion_tokens: 200,
      top_p: 0.8,
    });
  });

  it("gives an Azure OpenAI entry its credential's resource", async () => {
    fake.script({ kind: 'reply', text: ['Hi!'] });
    const model = createPlannedModel(
      {
        provider: 'azure_openai',
        model: 'support',
        speechToSpeech: false,
        credential: {
          provider: 'azure_openai',
          apiKey: 'azure-key',
          baseUrl: `${fake.rootUrl}/{region}`,
          region: 'contoso',
          paidBy: 'platform',
        },
      },
      2000,
    );
    await collect(model.stream(hi));
    expect(fake.last.path).toBe('/contoso/openai/deployments/support/chat/completions');
    expect(fake.last.headers['api-key']).toBe('azure-key');
  });

  it("signs a custom entry's requests with its secret, and keeps the partner's server off private networks unless allowed", async () => {
    const entry: ModelPlanEntry = {
      provider: 'custom',
      model: 'acme',
      speechToSpeech: false,
      credential: {
        provider: 'custom',
        apiKey: '',
        baseUrl: fake.rootUrl,
        signingSecret: 'whsec_entry',
        paidBy: 'account',
      },
    };
    fake.script({ kind: 'reply', text: ['Hi!'] });
    await collect(createPlannedModel(entry, 2000, { allowPrivateNetworks: true }).stream(hi));
    const ts = String(fake.last.headers['x-vap-timestamp']);
    expect(fake.last.path).toBe('/chat/completions');
    expect(fake.last.headers['x-vap-signature']).toBe(
      partnerRequestSignature('whsec_entry', ts, fake.last.raw),
    );

    fake.clear();
    const refused = await collect(
      createPlannedModel(entry, 2000, { allowPrivateNetworks: false }).stream(hi),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LlmError);
    expect(fake.requests).toEqual([]);
  });

  it('refuses an entry no plugin can run', () => {
    expect(() =>
      createPlannedModel({ provider: 'openai', model: 'gpt-4o', speechToSpeech: false }, 1000),
    ).toThrow(/no key for OpenAI/);
    expect(() =>
      createPlannedModel({ provider: 'nope' as never, model: 'x', speechToSpeech: false }, 1000),
    ).toThrow(LlmError);
  });
});
