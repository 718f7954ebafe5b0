import { apiBaseUrl } from '@vap/llm';
import { SPOKEN_LANGUAGES } from '@vap/messages';
import { checkKeyByRequest } from '@vap/llm';
import type { SpeechPlugin } from '../plugin';
import { OpenAiSttProvider } from './openai-stt.provider';
import { OpenAiTtsProvider } from './openai-tts.provider';

export { OpenAiSttProvider } from './openai-stt.provider';
export { OpenAiTtsProvider } from './openai-tts.provider';

/** OpenAI (or any OpenAI-compatible server): /audio/speech and /audio/transcriptions. */
export const openAiPlugin: SpeechPlugin = {
  name: 'openai',
  label: 'OpenAI',
  defaultBaseUrl: 'https://api.openai.com/v1',
  tts: {
    create: (config) => new OpenAiTtsProvider(config),
    streaming: true,
    pronunciations: 'alias',
    languages: SPOKEN_LANGUAGES,
    defaultModel: 'gpt-4o-mini-tts',
  },
  stt: {
    create: (config) => new OpenAiSttProvider(config),
    streaming: false,
    keyterms: false,
    codeSwitching: false,
    languages: SPOKEN_LANGUAGES,
    defaultModel: 'gpt-4o-transcribe',
  },
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${apiBaseUrl(baseUrl)}/models`,
      { headers: { authorization: `Bearer ${apiKey}` } },
      timeoutMs,
      signal,
    ),
};
