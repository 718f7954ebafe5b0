import { apiBaseUrl } from '@vap/llm';
import { checkKeyByRequest } from '@vap/llm';
import type { SpeechPlugin } from '../plugin';
import { DeepgramSttProvider } from './deepgram-stt.provider';
import { DeepgramTtsProvider } from './deepgram-tts.provider';

export {
  DeepgramSttProvider,
  DeepgramSttSession,
  deepgramListenUrl,
  FINALIZE_GRACE_MS,
  FINALIZE_PENDING_WAIT_MS,
  KEEPALIVE_MS,
  type DeepgramTiming,
} from './deepgram-stt.provider';
export {
  DeepgramTtsProvider,
  DEEPGRAM_SPEAK_MAX_CHARS,
  deepgramSpeakModel,
  speakPieces,
} from './deepgram-tts.provider';

/** Deepgram: live /v1/listen over WebSocket (and Aura /v1/speak). */
export const deepgramPlugin: SpeechPlugin = {
  name: 'deepgram',
  label: 'Deepgram',
  defaultBaseUrl: 'https://api.deepgram.com/v1',
  tts: {
    create: (config) => new DeepgramTtsProvider(config),
    streaming: true,
    pronunciations: 'alias',
    // Aura's voices speak English (and Spanish, which the platform does not offer).
    languages: ['en'],
    defaultModel: 'aura-2',
  },
  stt: {
    create: (config) => new DeepgramSttProvider(config),
    streaming: true,
    // keyterm prompting on Nova-3, keywords before it.
    keyterms: true,
    // Nova-3 with language=multi; its answers name each result's language.
    codeSwitching: true,
    languages: ['en', 'hinglish', 'hi'],
    defaultModel: 'nova-3',
  },
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${apiBaseUrl(baseUrl)}/projects`,
      { headers: { authorization: `Token ${apiKey}` } },
      timeoutMs,
      signal,
    ),
};
