import type { ModelCard } from '../plugin';

/** The Messages API's sampling temperature range (https://docs.anthropic.com/en/api/messages). */
const TEMPERATURE = { min: 0, max: 1 };

/**
 * Anthropic's Claude models for voice agents, by their aliases, with the context windows and output limits of
 * Anthropic's models overview (https://docs.anthropic.com/en/docs/about-claude/models/overview). Models that no
 * longer take a sampling temperature (Opus 4.7 on) are not offered: an agent's temperature would be refused.
 * The first, the fastest, is the catalog's default. Every one understands any language (languages empty).
 */
export const ANTHROPIC_MODELS: readonly ModelCard[] = [
  {
    id: 'claude-haiku-4-5',
    label: 'Claude Haiku 4.5',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: TEMPERATURE,
  },
  {
    id: 'claude-sonnet-4-6',
    label: 'Claude Sonnet 4.6',
    contextWindow: 1_000_000,
    maxOutputTokens: 64_000,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: TEMPERATURE,
  },
  {
    id: 'claude-sonnet-4-5',
    label: 'Claude Sonnet 4.5',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: TEMPERATURE,
  },
  {
    id: 'claude-opus-4-6',
    label: 'Claude Opus 4.6',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: TEMPERATURE,
  },
  {
    id: 'claude-opus-4-5',
    label: 'Claude Opus 4.5',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: TEMPERATURE,
  },
];
