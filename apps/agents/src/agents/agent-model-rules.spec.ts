// The agent's model against the plugins' catalogs (libs/llm): a model the provider offers, its parameters within
// that model's own bounds, voices only on speech-to-speech models; and the rules between the model and its
// fallbacks (another model each, all of one kind, a model to back up).
import type { AgentModelDto } from '@vap/api';
import { agentModelEntries, modelCatalogProblems, modelRuleViolations } from './agent-model-rules';

const model = (provider: string, id: string, params: Partial<AgentModelDto> = {}): AgentModelDto => ({
  provider: provider as AgentModelDto['provider'],
  model: id,
  temperature: null,
  max_tokens: null,
  top_p: null,
  voice: null,
  ...params,
});

const catalogProblems = (m: AgentModelDto) =>
  modelCatalogProblems({ field: 'model', label: 'model', model: m });

describe('modelCatalogProblems', () => {
  it('takes a catalog model within its bounds, and any id of the right shape from an any-model provider', () => {
    expect(catalogProblems(model('openai', 'gpt-4o-mini', { temperature: 2, max_tokens: 16_384 }))).toEqual(
      [],
    );
    expect(catalogProblems(model('offline', 'offline'))).toEqual([]);
    expect(catalogProblems(model('azure_openai', 'our-gpt4o-deployment'))).toEqual([]);
    expect(catalogProblems(model('custom', 'acme/llama-3-70b@v2'))).toEqual([]);
    expect(catalogProblems(model('openai', 'gpt-realtime', { voice: 'marin', temperature: 0.8 }))).toEqual(
      [],
    );
  });

  it('refuses a model its provider does not offer, naming the provider', () => {
    expect(catalogProblems(model('openai', 'gpt-2'))).toEqual([
      { field: 'model.model', message: 'model.model is not a model of OpenAI (see GET /models)' },
    ]);
    expect(catalogProblems(model('groq', 'not-a-groq-model'))).toEqual([
      { field: 'model.model', message: 'model.model is not a model of Groq (see GET /models)' },
    ]);
    expect(catalogProblems(model('offline', 'gpt-4o'))).toEqual([
      { field: 'model.model', message: 'model.model must be offline for the offline engine' },
    ]);
  });

  it('refuses parameters outside the model’s own bounds, each at its field', () => {
    expect(
      catalogProblems(model('openai', 'gpt-realtime', { temperature: 0.3, max_tokens: 5000, voice: 'nova' })),
    ).toEqual([
      { field: 'model.temperature', message: 'model.temperature must be from 0.6 to 1.2 for gpt-realtime' },
      { field: 'model.max_tokens', message: 'model.max_tokens must be at most 4096 for gpt-realtime' },
      {
        field: 'model.voice',
        message:
          'model.voice must be one of alloy, ash, ballad, coral, echo, sage, shimmer, verse, marin, cedar for gpt-realtime',
      },
    ]);
    expect(catalogProblems(model('openai', 'gpt-4o-mini', { max_tokens: 16_385 }))).toEqual([
      { field: 'model.max_tokens', message: 'model.max_tokens must be at most 16384 for gpt-4o-mini' },
    ]);
  });

  it('refuses a voice on a model that does not speak', () => {
    expect(catalogProblems(model('openai', 'gpt-4o-mini', { voice: 'alloy' }))).toEqual([
      {
        field: 'model.voice',
        message: 'model.voice applies only to speech-to-speech models; gpt-4o-mini is not one',
      },
    ]);
  });

  it('names a fallback by its place', () => {
    const [, fallback] = agentModelEntries({
      model: model('openai', 'gpt-4o'),
      fallbackModels: [model('openai', 'gpt-4o-mini', { max_tokens: 99_999 })],
    });
    expect(modelCatalogProblems(fallback)).toEqual([
      {
        field: 'fallback_models.0.max_tokens',
        message: 'fallback_models[0].max_tokens must be at most 16384 for gpt-4o-mini',
      },
    ]);
  });
});

describe('modelRuleViolations', () => {
  it('takes a model with distinct fallbacks of its kind, and no model at all', () => {
    expect(
      modelRuleViolations({
        model: model('openai', 'gpt-4o'),
        fallbackModels: [model('openai', 'gpt-4o-mini'), model('groq', 'llama-3.3-70b-versatile')],
      }),
    ).toEqual([]);
    expect(modelRuleViolations({ model: null, fallbackModels: [] })).toEqual([]);
  });

  it('refuses fallbacks without a model to back up', () => {
    expect(modelRuleViolations({ model: null, fallbackModels: [model('openai', 'gpt-4o')] })).toEqual([
      {
        field: 'fallback_models',
        message: 'fallback_models needs a model to back up (set model too, or leave fallback_models empty)',
      },
    ]);
  });

  it('refuses a fallback that is the model itself or repeats another, whatever its parameters', () => {
    expect(
      modelRuleViolations({
        model: model('openai', 'gpt-4o', { temperature: 0.2 }),
        fallbackModels: [
          model('openai', 'gpt-4o-mini'),
          model('openai', 'gpt-4o', { temperature: 1 }),
          model('openai', 'gpt-4o-mini', { max_tokens: 100 }),
        ],
      }),
    ).toEqual([
      {
        field: 'fallback_models.1.model',
        message: "fallback_models[1] is the agent's own model; a fallback must be another model",
      },
      { field: 'fallback_models.2.model', message: 'fallback_models[2] repeats fallback_models[0]' },
    ]);
  });

  it('refuses mixing speech-to-speech models with chat models', () => {
    expect(
      modelRuleViolations({
        model: model('openai', 'gpt-realtime'),
        fallbackModels: [model('openai', 'gpt-4o-realtime-preview'), model('openai', 'gpt-4o-mini')],
      }),
    ).toEqual([
      {
        field: 'fallback_models.1.model',
        message:
          "fallback_models[1] is not a speech-to-speech model and model is: an agent's models are all speech-to-speech or none",
      },
    ]);
  });
});
