import { checkKeyByRequest } from '../key-check';
import { SpeechToSpeechOnlyModel } from '../openai/speech-to-speech-only-model';
import type { ModelPlugin } from '../plugin';
import { GeminiChatModel, geminiApiBase } from './gemini-chat-model';
import { GEMINI_MODELS } from './gemini-models';

export { GEMINI_MODELS } from './gemini-models';
export { GeminiChatModel, geminiApiBase } from './gemini-chat-model';

/**
 * Google's Gemini API (https://ai.google.dev/api, v1beta): chat through streamed generateContent. Its Live models
 * are listed for the catalog; the realtime driver runs them on the same key and base URL (Gemini Live).
 * A key Google does not know is answered 400 API_KEY_INVALID (or 403 for one without access): both are refusals.
 */
export const geminiModelPlugin: ModelPlugin = {
  name: 'google',
  label: 'Google Gemini',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  models: GEMINI_MODELS,
  create: (config) =>
    GEMINI_MODELS.find((m) => m.id === config.model)?.speechToSpeech
      ? new SpeechToSpeechOnlyModel(config.model, 'Google Gemini')
      : new GeminiChatModel(config),
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${geminiApiBase(baseUrl)}/models`,
      { headers: { 'x-goog-api-key': apiKey } },
      timeoutMs,
      signal,
    ),
};
