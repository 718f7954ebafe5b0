import { LlmError } from '../llm-error';
import { describeChatAdapterContract, describeKeyCheckContract } from '../testing/chat-adapter-contract';
import { openAiModelPlugin } from '.';

const bearer = (headers: Record<string, unknown>, key: string) => {
  expect(headers.authorization).toBe(`Bearer ${key}`);
  expect(headers['api-key']).toBeUndefined();
};

describeChatAdapterContract('OpenAI', {
  create: (target, p) => openAiModelPlugin.create({ baseUrl: target.baseUrl, model: 'gpt-4o-mini', ...p }),
  model: 'gpt-4o-mini',
  chatPath: '/v1/chat/completions',
  expectKey: bearer,
  maxTokensField: 'max_completion_tokens',
  asksUsage: true,
});

describeKeyCheckContract('OpenAI', {
  check: (target, apiKey, timeoutMs) =>
    openAiModelPlugin.checkKey({ baseUrl: target.baseUrl, apiKey, timeoutMs }),
  path: '/v1/models',
  expectKey: bearer,
});

describe('OpenAI model plugin', () => {
  it("talks to OpenAI's public API unless a setting says otherwise", () => {
    expect(openAiModelPlugin.defaultBaseUrl).toBe('https://api.openai.com/v1');
  });

  it('lists its Realtime models as speech to speech, with their voices, and their chat adapter points to the realtime driver', async () => {
    const realtime = openAiModelPlugin.models.filter((m) => m.speechToSpeech).map((m) => m.id);
    expect(realtime).toEqual(expect.arrayContaining(['gpt-realtime', 'gpt-4o-realtime-preview']));
    for (const id of realtime) {
      expect(openAiModelPlugin.models.find((m) => m.id === id)?.voices).toContain('alloy');
      const model = openAiModelPlugin.create({
        baseUrl: 'http://127.0.0.1:1/v1',
        apiKey: 'k',
        model: id,
        timeoutMs: 1000,
      });
      const err = await (async () => {
        for await (const d of model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }))
          void d;
      })().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmError);
      expect((err as LlmError).message).toMatch(/speech-to-speech model: the realtime driver runs it/);
    }
  });
});
