import type { CatalogModel } from '../../components/models';
import {
  choiceOf,
  fromChoice,
  modelDraft,
  modelOfProvider,
  modelProblems,
  modelValues,
  runsOn,
} from './agent-model';
import { toDraft, toRequests, type Agent } from './model';

// Catalog entries as GET /models answers them (the offline engine, a host with the platform's key, one the
// account has no key for, a speech-to-speech model and an any-model provider).
const card = (over: Partial<CatalogModel>): CatalogModel => ({
  provider: 'groq',
  provider_label: 'Groq',
  model: 'llama-3.3-70b-versatile',
  label: 'Llama 3.3 70B Versatile',
  any_model: false,
  capabilities: { tools: true, streaming: true, speech_to_speech: false, languages: ['en'] },
  context_window: 131_072,
  parameters: { temperature_min: 0, temperature_max: 2, max_tokens_max: 32_768 },
  availability: 'platform',
  unavailable_reason: null,
  ...over,
});
const CATALOG: CatalogModel[] = [
  card({
    provider: 'offline',
    provider_label: 'Offline engine',
    model: 'offline',
    label: 'Offline engine',
    availability: 'offline',
    parameters: { temperature_min: 0, temperature_max: 1, max_tokens_max: 1024 },
  }),
  card({}),
  card({ model: 'llama-3.1-8b-instant', label: 'Llama 3.1 8B Instant', availability: 'account_key' }),
  card({
    provider: 'deepseek',
    provider_label: 'DeepSeek',
    model: 'deepseek-chat',
    label: 'DeepSeek V3',
    availability: null,
    unavailable_reason: 'Needs a DeepSeek key (POST /provider-credentials)',
  }),
  card({
    provider: 'openai',
    provider_label: 'OpenAI',
    model: 'gpt-realtime',
    label: 'GPT Realtime',
    voices: ['alloy', 'marin'],
    capabilities: { tools: true, streaming: true, speech_to_speech: true, languages: [] },
  }),
  card({
    provider: 'openrouter',
    provider_label: 'OpenRouter',
    model: 'openai/gpt-4o-mini',
    label: 'GPT-4o mini (OpenRouter)',
    any_model: true,
  }),
];

const draft = (provider: string, model: string, over: Record<string, string> = {}) => ({
  provider,
  model,
  temperature: '',
  max_tokens: '',
  top_p: '',
  voice: '',
  ...over,
});

describe('the agent’s model in the builder', () => {
  it('reads the record’s model into the form and writes back exactly the API’s shape', () => {
    const record = {
      provider: 'groq',
      model: 'llama-3.3-70b-versatile',
      temperature: 0.4,
      max_tokens: 300,
      top_p: null,
      voice: null,
    };
    const d = modelDraft(record)!;
    expect(d).toEqual(draft('groq', 'llama-3.3-70b-versatile', { temperature: '0.4', max_tokens: '300' }));
    const fallbacks = [draft('offline', 'offline')];
    expect(modelValues(d, fallbacks, CATALOG, () => undefined)).toEqual({
      model: record,
      fallback_models: [
        {
          provider: 'offline',
          model: 'offline',
          temperature: null,
          max_tokens: null,
          top_p: null,
          voice: null,
        },
      ],
    });
    expect(modelProblems(d, fallbacks, CATALOG)).toEqual([]);
    expect(modelDraft(null)).toBeNull();
    expect(modelValues(null, [], CATALOG, () => undefined)).toEqual({ model: null, fallback_models: [] });
  });

  it('sends the model and fallbacks with the agent only when they changed', () => {
    const agent = {
      agent_name: 'Maya',
      prompt: 'You help.',
      model: { provider: 'groq', model: 'llama-3.3-70b-versatile', temperature: 0.4, max_tokens: null },
      fallback_models: [],
    } as unknown as Agent;
    const original = toDraft(agent);
    expect(toRequests(original, original, CATALOG).update).toEqual({});
    const changed = { ...original, fallback_models: [draft('groq', 'llama-3.1-8b-instant')] };
    const { update, problems } = toRequests(changed, original, CATALOG);
    expect(problems).toEqual([]);
    expect(update).toEqual({
      fallback_models: [
        {
          provider: 'groq',
          model: 'llama-3.1-8b-instant',
          temperature: null,
          max_tokens: null,
          top_p: null,
          voice: null,
        },
      ],
    });
  });

  it('names parameters outside the model’s own bounds at their fields', () => {
    const problems = modelProblems(
      draft('offline', 'offline', { temperature: '1.5', max_tokens: '2000', top_p: '1.2' }),
      [],
      CATALOG,
    );
    expect(problems).toEqual([
      { field: 'model.temperature', message: 'The temperature must be a number from 0 to 1, or empty' },
      {
        field: 'model.max_tokens',
        message: 'The longest reply must be a whole number from 1 to 1024, or empty',
      },
      { field: 'model.top_p', message: 'Top p must be a number from 0 to 1, or empty' },
    ]);
    expect(
      modelProblems(draft('groq', 'llama-3.3-70b-versatile', { max_tokens: '10.5' }), [], CATALOG),
    ).toEqual([
      {
        field: 'model.max_tokens',
        message: 'The longest reply must be a whole number from 1 to 32768, or empty',
      },
    ]);
    // Without the catalog, the API's general bounds.
    expect(modelProblems(draft('groq', 'x', { temperature: '2.5' }), [], null)).toEqual([
      { field: 'model.temperature', message: 'The temperature must be a number from 0 to 2, or empty' },
    ]);
  });

  it('tells the rules between the model and its fallbacks', () => {
    const main = draft('groq', 'llama-3.3-70b-versatile');
    expect(modelProblems(null, [draft('offline', 'offline')], CATALOG)).toEqual([
      {
        field: 'fallback_models',
        message: 'Fallback models back up the agent’s model: choose a model first, or remove the fallbacks',
      },
    ]);
    expect(
      modelProblems(
        main,
        [
          draft('groq', 'llama-3.3-70b-versatile'),
          draft('offline', 'offline'),
          draft('offline', 'offline'),
          draft('openai', 'gpt-realtime'),
        ],
        CATALOG,
      ),
    ).toEqual([
      { field: 'fallback_models', message: 'At most 3 fallback models' },
      {
        field: 'fallback_models.0.model',
        message: 'This is the agent’s own model: a fallback is another model',
      },
      { field: 'fallback_models.2.model', message: 'This model is already a fallback' },
      {
        field: 'fallback_models.3.model',
        message: 'The agent’s model is not speech to speech: its fallbacks cannot be',
      },
    ]);
    expect(modelProblems(main, [draft('', '')], CATALOG)).toEqual([
      { field: 'fallback_models.0.model', message: 'Choose a fallback model, or remove it' },
    ]);
    expect(modelProblems(draft('groq', ''), [], CATALOG)).toEqual([
      { field: 'model.model', message: 'Choose a model of Groq' },
    ]);
  });

  it('takes any well-formed id of an any-model provider, and only those', () => {
    expect(modelProblems(draft('openrouter', 'anthropic/claude-3.5-haiku'), [], CATALOG)).toEqual([]);
    expect(modelProblems(draft('openrouter', 'no spaces please'), [], CATALOG)).toEqual([
      {
        field: 'model.model',
        message: 'A model name is up to 128 letters, digits and . _ : / @ -, starting with a letter or digit',
      },
    ]);
  });

  it('keeps a voice only on a speech-to-speech model', () => {
    const s2s = modelValues(
      draft('openai', 'gpt-realtime', { voice: 'marin' }),
      [],
      CATALOG,
      () => undefined,
    );
    expect(s2s.model).toMatchObject({ voice: 'marin' });
    const text = modelValues(
      draft('groq', 'llama-3.3-70b-versatile', { voice: 'marin' }),
      [],
      CATALOG,
      () => 0,
    );
    expect(text.model).toMatchObject({ voice: null });
  });

  it('starts a provider on its first model the account can use, and round-trips a fallback’s choice', () => {
    expect(modelOfProvider('groq', CATALOG)).toEqual(draft('groq', 'llama-3.3-70b-versatile'));
    expect(modelOfProvider('deepseek', CATALOG)).toEqual(draft('deepseek', ''));
    expect(modelOfProvider('', CATALOG)).toBeNull();
    const choice = choiceOf({ provider: 'openrouter', model: 'meta-llama/llama-3|x' });
    expect(fromChoice(choice)).toEqual({ provider: 'openrouter', model: 'meta-llama/llama-3|x' });
    expect(fromChoice('')).toEqual({ provider: '', model: '' });
  });

  it('says what calls will run on, by name, with whose key and why a model cannot run', () => {
    expect(runsOn(null, [], CATALOG)[0]).toMatch(/^The deployment’s default model/);
    expect(
      runsOn(
        draft('groq', 'llama-3.3-70b-versatile'),
        [draft('groq', 'llama-3.1-8b-instant'), draft('deepseek', 'deepseek-chat')],
        CATALOG,
      ),
    ).toEqual([
      'Calls will run on Groq · Llama 3.3 70B Versatile, on the platform’s Groq key, within the minute price.',
      'If it fails before any of its reply is spoken: Groq · Llama 3.1 8B Instant, on your Groq key.',
      'If that fails too: DeepSeek · DeepSeek V3, which cannot run yet: Needs a DeepSeek key (POST /provider-credentials).',
    ]);
    expect(runsOn(draft('openai', 'gpt-realtime'), [], CATALOG)[1]).toMatch(/speech to speech/);
    expect(runsOn(draft('offline', 'offline'), [], CATALOG)).toEqual([
      'Calls will run on Offline engine, which needs no key.',
    ]);
  });
});
