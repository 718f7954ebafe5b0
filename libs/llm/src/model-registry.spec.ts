import { MODEL_PROVIDERS } from '@vap/messages';
import { ANY_MODEL_ID, MODEL_PLUGINS, modelCard, modelPlugin, OFFLINE_MODEL_CARD } from './model-registry';

describe('model registry', () => {
  it('has one plugin for every model provider and for custom, each under its own name, with a label', () => {
    expect(Object.keys(MODEL_PLUGINS).sort()).toEqual([...MODEL_PROVIDERS, 'custom'].sort());
    for (const [name, plugin] of Object.entries(MODEL_PLUGINS)) {
      expect(plugin?.name).toBe(name);
      expect(plugin?.label.trim()).not.toBe('');
      if (name === 'custom') expect(plugin?.defaultBaseUrl).toBe('');
      else expect(plugin?.defaultBaseUrl).toMatch(/^https:\/\/[^/]+/);
      expect(plugin?.models.length).toBeGreaterThan(0);
    }
  });

  it('describes every model sanely: context > max output > 0, a temperature range, unique ids, voices only where it speaks', () => {
    for (const plugin of Object.values(MODEL_PLUGINS)) {
      const ids = new Set<string>();
      for (const card of plugin?.models ?? []) {
        const where = `${plugin?.name} ${card.id}`;
        expect([where, ids.has(card.id)]).toEqual([where, false]);
        ids.add(card.id);
        expect([where, ANY_MODEL_ID.test(card.id)]).toEqual([where, true]);
        expect(card.label.trim()).not.toBe('');
        expect(card.maxOutputTokens).toBeGreaterThan(0);
        expect([where, card.contextWindow > card.maxOutputTokens]).toEqual([where, true]);
        expect(card.temperature.min).toBeGreaterThanOrEqual(0);
        expect(card.temperature.max).toBeGreaterThanOrEqual(card.temperature.min);
        expect(card.temperature.max).toBeLessThanOrEqual(2);
        if (card.speechToSpeech) expect(card.voices?.length).toBeGreaterThan(0);
        else expect(card.voices).toBeUndefined();
      }
    }
  });

  it('finds plugins by name, and none for offline or names that are not providers', () => {
    expect(modelPlugin('groq')?.label).toBe('Groq');
    expect(modelPlugin('offline')).toBeUndefined();
    expect(modelPlugin('toString')).toBeUndefined();
    expect(modelPlugin('nope')).toBeUndefined();
  });

  it("gives a model's card, the first card under any id of the right shape for providers that take any, and none otherwise", () => {
    expect(modelCard('openai', 'gpt-4o')).toMatchObject({
      id: 'gpt-4o',
      contextWindow: 128_000,
      tools: true,
    });
    expect(modelCard('openai', 'gpt-9-imaginary')).toBeUndefined();
    expect(modelCard('groq', 'gpt-4o')).toBeUndefined();
    const first = MODEL_PLUGINS.azure_openai?.models[0];
    expect(modelCard('azure_openai', 'prod-support-deployment')).toEqual({
      ...first,
      id: 'prod-support-deployment',
      label: 'prod-support-deployment',
    });
    expect(modelCard('openrouter', 'qwen/qwen-2.5-72b-instruct:free')).toMatchObject({
      id: 'qwen/qwen-2.5-72b-instruct:free',
    });
    expect(modelCard('custom', 'acme@v2')).toMatchObject({ id: 'acme@v2', tools: true });
    for (const bad of ['', '-starts-with-dash', 'has space', 'x'.repeat(129)])
      expect(modelCard('custom', bad)).toBeUndefined();
    expect(modelCard('offline', 'offline')).toBe(OFFLINE_MODEL_CARD);
    expect(modelCard('offline', 'gpt-4o')).toBeUndefined();
    expect(modelCard('nope', 'gpt-4o')).toBeUndefined();
  });
});
