import { describeChatAdapterContract, describeKeyCheckContract } from '../testing/chat-adapter-contract';
import { COMPATIBLE_HOSTS, compatibleHostPlugin } from '.';

const bearer = (headers: Record<string, unknown>, key: string) => {
  expect(headers.authorization).toBe(`Bearer ${key}`);
};

for (const host of Object.values(COMPATIBLE_HOSTS)) {
  const plugin = compatibleHostPlugin(host);
  const model = host.models[0].id;
  describeChatAdapterContract(host.label, {
    create: (target, p) => plugin.create({ baseUrl: target.baseUrl, model, ...p }),
    model,
    chatPath: '/v1/chat/completions',
    expectKey: bearer,
    maxTokensField: 'max_tokens',
    asksUsage: host.streamUsage,
  });
  describeKeyCheckContract(host.label, {
    check: (target, apiKey, timeoutMs) => plugin.checkKey({ baseUrl: target.baseUrl, apiKey, timeoutMs }),
    path: `/v1${host.keyCheckPath}`,
    expectKey: bearer,
  });
}

describe('OpenAI-compatible hosts', () => {
  it("own each host's base URL", () => {
    expect(Object.fromEntries(Object.values(COMPATIBLE_HOSTS).map((h) => [h.name, h.baseUrl]))).toEqual({
      groq: 'https://api.groq.com/openai/v1',
      together: 'https://api.together.xyz/v1',
      fireworks: 'https://api.fireworks.ai/inference/v1',
      openrouter: 'https://openrouter.ai/api/v1',
      deepseek: 'https://api.deepseek.com/v1',
      mistral: 'https://api.mistral.ai/v1',
    });
  });

  it('take any OpenRouter model id, and only listed ids elsewhere', () => {
    expect(
      Object.values(COMPATIBLE_HOSTS)
        .filter((h) => h.anyModel)
        .map((h) => h.name),
    ).toEqual(['openrouter']);
  });
});
