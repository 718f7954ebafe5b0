import { validateConfig } from '@vap/runtime';
import { KnowledgeConfig } from '../config/knowledge.config';
import { ModelsConfig } from '../config/models.config';
import { ModelDeployment } from './model-deployment';

const KEY = 'platform-model-key-0123456789';

function deployment(env: Record<string, string>, allowPrivateNetworks = false): ModelDeployment {
  return new ModelDeployment(
    validateConfig(ModelsConfig, env),
    Object.assign(new KnowledgeConfig(), { WEBHOOK_ALLOW_PRIVATE_NETWORKS: allowPrivateNetworks }),
  );
}

describe('ModelsConfig', () => {
  it.each([
    [{ MODEL_ANTHROPIC_TIERS: 'gold' }, /MODEL_ANTHROPIC_TIERS must be a comma-separated list/],
    [{ MODEL_GROQ_BASE_URL: 'ftp://x' }, /MODEL_GROQ_BASE_URL must be an http\(s\) URL/],
    [{ MODEL_OPENAI_API_KEY: 'short' }, /MODEL_OPENAI_API_KEY must be 8 to 512 characters/],
    [
      { MODEL_AZURE_OPENAI_API_KEY: KEY },
      /MODEL_AZURE_OPENAI_RESOURCE must be an Azure OpenAI resource name/,
    ],
    [{ MODEL_KEY_CHECK_TIMEOUT_MS: '60000' }, /MODEL_KEY_CHECK_TIMEOUT_MS/],
  ])('refuses %p', (env, problem) => {
    expect(() => validateConfig(ModelsConfig, env)).toThrow(problem);
  });

  it('never shows a refused key', () => {
    expect(() => validateConfig(ModelsConfig, { MODEL_MISTRAL_API_KEY: 'sk-x' })).toThrow(
      /MODEL_MISTRAL_API_KEY: .*a value of 4 characters, not shown/,
    );
  });
});

describe('ModelDeployment', () => {
  it('serves the platform’s key to the tiers its TIERS names, every tier when unset', () => {
    const d = deployment({
      MODEL_OPENAI_API_KEY: KEY,
      MODEL_OPENAI_TIERS: 'premium, enterprise',
      MODEL_GROQ_API_KEY: KEY,
    });
    expect(d.platformKeyFor('openai', 'standard')).toBeUndefined();
    expect(d.platformKeyFor('openai', 'premium')).toMatchObject({ provider: 'openai', apiKey: KEY });
    // An unknown tier counts as the base tier.
    expect(d.platformKeyFor('openai', 'platinum')).toBeUndefined();
    expect(d.platformKeyFor('groq', 'standard')?.apiKey).toBe(KEY);
    expect(d.platformKeyFor('mistral', 'enterprise')).toBeUndefined();
  });

  it('sends each provider to its setting, else its plugin’s public API, with an Azure key’s resource put in', () => {
    const d = deployment({
      MODEL_GROQ_BASE_URL: 'http://127.0.0.1:4010/openai/v1',
      MODEL_AZURE_OPENAI_API_KEY: KEY,
      MODEL_AZURE_OPENAI_RESOURCE: 'platform-openai',
    });
    expect(d.baseUrl('groq')).toBe('http://127.0.0.1:4010/openai/v1');
    expect(d.baseUrl('openai')).toBe('https://api.openai.com/v1');
    expect(d.baseUrl('together')).toBe('https://api.together.xyz/v1');
    expect(d.baseUrl('azure_openai', 'acme-openai')).toBe('https://acme-openai.openai.azure.com');
    expect(d.platformKeyFor('azure_openai', 'standard')?.region).toBe('platform-openai');
  });

  it('lets a partner’s model server be private only where partners’ URLs may be (development and tests)', () => {
    expect(deployment({}).allowPrivateNetworks).toBe(false);
    expect(deployment({}, true).allowPrivateNetworks).toBe(true);
    expect(deployment({ MODEL_KEY_CHECK_TIMEOUT_MS: '1500' }).keyCheckTimeoutMs).toBe(1500);
  });
});
