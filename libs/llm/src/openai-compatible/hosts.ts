import type { ModelProviderName, SpokenLanguage } from '@vap/messages';
import type { ModelCard } from '../plugin';

/** One OpenAI-compatible host: its API base (the platform's, never a partner's), its catalog and its quirks. */
export interface CompatibleHost {
  name: Extract<ModelProviderName, 'groq' | 'together' | 'fireworks' | 'openrouter' | 'deepseek' | 'mistral'>;
  label: string;
  /** The host's OpenAI-compatible API base: chat completions at `<base>/chat/completions`. */
  baseUrl: string;
  models: readonly ModelCard[];
  /** Any model id the host serves is accepted (OpenRouter routes to hundreds), with models[0]'s card. */
  anyModel?: boolean;
  /**
   * The host takes `stream_options.include_usage` (Groq, DeepSeek). The others send the usage in the last chunk
   * unasked, and Mistral refuses the unknown field (422).
   */
  streamUsage: boolean;
  /**
   * The cheap authenticated request that judges a key, under the base: `/models` (OpenRouter's is public, so it
   * asks `/key`, which describes the key and refuses a bad one).
   */
  keyCheckPath: '/models' | '/key';
}

/** Meta documents Llama 3.x for English, Hindi and six European languages; Hinglish is those two mixed. */
const LLAMA_LANGUAGES: readonly SpokenLanguage[] = ['en', 'hinglish', 'hi'];
const ENGLISH: readonly SpokenLanguage[] = ['en'];
const TEMPERATURE_0_2 = { min: 0, max: 2 };

function card(
  id: string,
  label: string,
  contextWindow: number,
  maxOutputTokens: number,
  languages: readonly SpokenLanguage[],
  temperature = TEMPERATURE_0_2,
): ModelCard {
  return {
    id,
    label,
    contextWindow,
    maxOutputTokens,
    tools: true,
    speechToSpeech: false,
    languages,
    temperature,
  };
}

/**
 * The hosts, each with the models a voice agent is likely to want, context windows and output limits from each
 * host's model pages (where a host documents no output limit of its own, 8,192 is the platform's cap).
 */
export const COMPATIBLE_HOSTS: Readonly<Record<CompatibleHost['name'], CompatibleHost>> = {
  // https://console.groq.com/docs/models
  groq: {
    name: 'groq',
    label: 'Groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    streamUsage: true,
    keyCheckPath: '/models',
    models: [
      card('llama-3.3-70b-versatile', 'Llama 3.3 70B Versatile', 131_072, 32_768, LLAMA_LANGUAGES),
      card('llama-3.1-8b-instant', 'Llama 3.1 8B Instant', 131_072, 8_192, LLAMA_LANGUAGES),
      card('openai/gpt-oss-120b', 'GPT-OSS 120B', 131_072, 65_536, ENGLISH),
      card('openai/gpt-oss-20b', 'GPT-OSS 20B', 131_072, 65_536, ENGLISH),
    ],
  },
  // https://docs.together.ai/docs/serverless-models
  together: {
    name: 'together',
    label: 'Together AI',
    baseUrl: 'https://api.together.xyz/v1',
    streamUsage: false,
    keyCheckPath: '/models',
    models: [
      card(
        'meta-llama/Llama-3.3-70B-Instruct-Turbo',
        'Llama 3.3 70B Instruct Turbo',
        131_072,
        8_192,
        LLAMA_LANGUAGES,
      ),
      card(
        'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo',
        'Llama 3.1 8B Instruct Turbo',
        131_072,
        8_192,
        LLAMA_LANGUAGES,
      ),
      card('Qwen/Qwen2.5-72B-Instruct-Turbo', 'Qwen 2.5 72B Instruct Turbo', 32_768, 8_192, ENGLISH),
    ],
  },
  // https://fireworks.ai/models
  fireworks: {
    name: 'fireworks',
    label: 'Fireworks AI',
    baseUrl: 'https://api.fireworks.ai/inference/v1',
    streamUsage: false,
    keyCheckPath: '/models',
    models: [
      card(
        'accounts/fireworks/models/llama-v3p3-70b-instruct',
        'Llama 3.3 70B Instruct',
        131_072,
        8_192,
        LLAMA_LANGUAGES,
      ),
      card(
        'accounts/fireworks/models/llama-v3p1-8b-instruct',
        'Llama 3.1 8B Instruct',
        131_072,
        8_192,
        LLAMA_LANGUAGES,
      ),
      card('accounts/fireworks/models/qwen2p5-72b-instruct', 'Qwen 2.5 72B Instruct', 32_768, 8_192, ENGLISH),
    ],
  },
  // https://openrouter.ai/models: any of them, by its OpenRouter id.
  openrouter: {
    name: 'openrouter',
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    anyModel: true,
    streamUsage: false,
    keyCheckPath: '/key',
    models: [
      card('openai/gpt-4o-mini', 'GPT-4o mini (via OpenRouter)', 128_000, 16_384, []),
      card('anthropic/claude-3.5-haiku', 'Claude 3.5 Haiku (via OpenRouter)', 200_000, 8_192, [], {
        min: 0,
        max: 1,
      }),
      card('google/gemini-2.0-flash-001', 'Gemini 2.0 Flash (via OpenRouter)', 1_048_576, 8_192, []),
      card(
        'meta-llama/llama-3.3-70b-instruct',
        'Llama 3.3 70B Instruct (via OpenRouter)',
        131_072,
        8_192,
        LLAMA_LANGUAGES,
      ),
    ],
  },
  // https://api-docs.deepseek.com/quick_start/pricing: 128K context, output 8K at most.
  deepseek: {
    name: 'deepseek',
    label: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    streamUsage: true,
    keyCheckPath: '/models',
    models: [card('deepseek-chat', 'DeepSeek Chat', 128_000, 8_192, ENGLISH)],
  },
  // https://docs.mistral.ai/getting-started/models/models_overview/
  mistral: {
    name: 'mistral',
    label: 'Mistral AI',
    baseUrl: 'https://api.mistral.ai/v1',
    streamUsage: false,
    keyCheckPath: '/models',
    models: [
      card('mistral-small-latest', 'Mistral Small', 128_000, 8_192, ['en', 'hinglish', 'hi', 'bn'], {
        min: 0,
        max: 1.5,
      }),
      card('mistral-medium-latest', 'Mistral Medium', 128_000, 8_192, ['en', 'hinglish', 'hi'], {
        min: 0,
        max: 1.5,
      }),
      card('mistral-large-latest', 'Mistral Large', 128_000, 8_192, ['en', 'hinglish', 'hi'], {
        min: 0,
        max: 1.5,
      }),
      card('ministral-8b-latest', 'Ministral 8B', 128_000, 8_192, ENGLISH, { min: 0, max: 1.5 }),
    ],
  },
};
