import type { ModelCard } from '../plugin';

/** OpenAI Realtime's voices (https://platform.openai.com/docs/guides/realtime, session.voice). */
export const OPENAI_REALTIME_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
] as const;

/** Chat models' sampling temperature, as the Chat Completions API documents it. */
const CHAT_TEMPERATURE = { min: 0, max: 2 };
/** The Realtime API's session temperature range. */
const REALTIME_TEMPERATURE = { min: 0.6, max: 1.2 };

/**
 * OpenAI's models for voice agents, with the context windows and output limits of OpenAI's model pages
 * (https://platform.openai.com/docs/models). The first is the catalog's default. Every one understands any
 * language (languages empty).
 */
export const OPENAI_MODELS: readonly ModelCard[] = [
  {
    id: 'gpt-4o-mini',
    label: 'GPT-4o mini',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
  {
    id: 'gpt-4o',
    label: 'GPT-4o',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
  {
    id: 'gpt-4.1',
    label: 'GPT-4.1',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
  {
    id: 'gpt-4.1-mini',
    label: 'GPT-4.1 mini',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
  {
    id: 'gpt-4.1-nano',
    label: 'GPT-4.1 nano',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: CHAT_TEMPERATURE,
  },
  {
    id: 'gpt-realtime',
    label: 'GPT Realtime (speech to speech)',
    contextWindow: 32_000,
    maxOutputTokens: 4_096,
    tools: true,
    speechToSpeech: true,
    languages: [],
    temperature: REALTIME_TEMPERATURE,
    voices: OPENAI_REALTIME_VOICES,
  },
  {
    id: 'gpt-4o-realtime-preview',
    label: 'GPT-4o Realtime preview (speech to speech)',
    contextWindow: 32_000,
    maxOutputTokens: 4_096,
    tools: true,
    speechToSpeech: true,
    languages: [],
    temperature: REALTIME_TEMPERATURE,
    voices: OPENAI_REALTIME_VOICES.slice(0, 8),
  },
  {
    id: 'gpt-4o-mini-realtime-preview',
    label: 'GPT-4o mini Realtime preview (speech to speech)',
    contextWindow: 16_000,
    maxOutputTokens: 4_096,
    tools: true,
    speechToSpeech: true,
    languages: [],
    temperature: REALTIME_TEMPERATURE,
    voices: OPENAI_REALTIME_VOICES.slice(0, 8),
  },
];
