import type { ModelCard } from '../plugin';
import { GEMINI_LIVE_VOICES } from '../realtime/gemini-live';

/** generateContent's generationConfig.temperature range, and the Live API's (the same field). */
const GEMINI_TEMPERATURE = { min: 0, max: 2 };

/** Input and output token limits of Google's model pages (https://ai.google.dev/gemini-api/docs/models). */
const ONE_MILLION = 1_048_576;

/**
 * Google's Gemini models for voice agents, as the Gemini API's model pages describe them. The first is the
 * catalog's default. Every one understands any language (languages empty). The Live models are the ones the
 * Gemini Live client opens sessions on; they hear and speak themselves in one of Live's prebuilt voices.
 */
export const GEMINI_MODELS: readonly ModelCard[] = [
  {
    id: 'gemini-2.5-flash',
    label: 'Gemini 2.5 Flash',
    contextWindow: ONE_MILLION,
    maxOutputTokens: 65_536,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: GEMINI_TEMPERATURE,
  },
  {
    id: 'gemini-2.5-pro',
    label: 'Gemini 2.5 Pro',
    contextWindow: ONE_MILLION,
    maxOutputTokens: 65_536,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: GEMINI_TEMPERATURE,
  },
  {
    id: 'gemini-2.5-flash-lite',
    label: 'Gemini 2.5 Flash-Lite',
    contextWindow: ONE_MILLION,
    maxOutputTokens: 65_536,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: GEMINI_TEMPERATURE,
  },
  {
    id: 'gemini-2.0-flash',
    label: 'Gemini 2.0 Flash',
    contextWindow: ONE_MILLION,
    maxOutputTokens: 8_192,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: GEMINI_TEMPERATURE,
  },
  {
    id: 'gemini-2.0-flash-lite',
    label: 'Gemini 2.0 Flash-Lite',
    contextWindow: ONE_MILLION,
    maxOutputTokens: 8_192,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: GEMINI_TEMPERATURE,
  },
  {
    id: 'gemini-live-2.5-flash-preview',
    label: 'Gemini Live 2.5 Flash preview (speech to speech)',
    contextWindow: ONE_MILLION,
    maxOutputTokens: 8_192,
    tools: true,
    speechToSpeech: true,
    languages: [],
    temperature: GEMINI_TEMPERATURE,
    voices: GEMINI_LIVE_VOICES,
  },
  {
    id: 'gemini-2.0-flash-live-001',
    label: 'Gemini 2.0 Flash Live (speech to speech)',
    contextWindow: ONE_MILLION,
    maxOutputTokens: 8_192,
    tools: true,
    speechToSpeech: true,
    languages: [],
    temperature: GEMINI_TEMPERATURE,
    voices: GEMINI_LIVE_VOICES,
  },
];
