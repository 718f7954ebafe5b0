import { describeChatAdapterContract, describeKeyCheckContract } from '../testing/chat-adapter-contract';
import { AZURE_OPENAI_API_VERSION, azureOpenAiChatUrl, azureOpenAiEndpoint, azureOpenAiModelPlugin } from '.';

const apiKeyHeader = (headers: Record<string, unknown>, key: string) => {
  expect(headers['api-key']).toBe(key);
  expect(headers.authorization).toBeUndefined();
};

describeChatAdapterContract('Azure OpenAI', {
  // The resource endpoint is the fake's origin; the deployment is the agent's model.
  create: (target, p) =>
    azureOpenAiModelPlugin.create({ baseUrl: target.rootUrl, region: 'contoso', model: 'support-4o', ...p }),
  model: 'support-4o',
  chatPath: '/openai/deployments/support-4o/chat/completions',
  chatQuery: { 'api-version': '2024-10-21' },
  expectKey: apiKeyHeader,
  maxTokensField: 'max_tokens',
  asksUsage: true,
});

describeKeyCheckContract('Azure OpenAI', {
  check: (target, apiKey, timeoutMs) =>
    azureOpenAiModelPlugin.checkKey({ baseUrl: target.rootUrl, region: 'contoso', apiKey, timeoutMs }),
  path: '/openai/models',
  query: { 'api-version': '2024-10-21' },
  expectKey: apiKeyHeader,
});

describe('Azure OpenAI model plugin', () => {
  it("puts the credential's resource into the endpoint and the deployment into the path", () => {
    expect(AZURE_OPENAI_API_VERSION).toBe('2024-10-21');
    expect(azureOpenAiModelPlugin.needsRegion).toBe(true);
    expect(azureOpenAiEndpoint(azureOpenAiModelPlugin.defaultBaseUrl, 'contoso')).toBe(
      'https://contoso.openai.azure.com',
    );
    expect(azureOpenAiEndpoint('https://contoso.openai.azure.com/openai/', undefined)).toBe(
      'https://contoso.openai.azure.com',
    );
    expect(
      azureOpenAiChatUrl({
        baseUrl: azureOpenAiModelPlugin.defaultBaseUrl,
        region: 'contoso',
        model: 'my deployment/1',
      }),
    ).toBe(
      'https://contoso.openai.azure.com/openai/deployments/my%20deployment%2F1/chat/completions?api-version=2024-10-21',
    );
  });

  it('takes any deployment name (deployments are named by the account)', () => {
    expect(azureOpenAiModelPlugin.anyModel).toBe(true);
  });
});
