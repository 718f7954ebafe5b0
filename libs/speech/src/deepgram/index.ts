import { apiBaseUrl } from '@vap/llm';
import { checkKeyByRequest } from '../key-check';
import type { SpeechPlugin } from '../plugin';
import { DeepgramSttProvider } from './deepgram-stt.provider';

export {
  DeepgramSttProvider,
  DeepgramSttSession,
  deepgramListenUrl,
  FINALIZE_GRACE_MS,
  KEEPALIVE_MS,
  type DeepgramTiming,
} from './deepgram-stt.provider';

/** Deepgram: live /v1/listen over WebSocket (and Aura /v1/speak). */
export const deepgramPlugin: SpeechPlugin = {
  name: 'deepgram',
  label: 'Deepgram',
  defaultBaseUrl: 'https://api.deepgram.com/v1',
  stt: {
    create: (config) => new DeepgramSttProvider(config),
    streaming: true,
    keyterms: false,
    codeSwitching: false,
    languages: ['en', 'hinglish', 'hi'],
    defaultModel: 'nova-2',
  },
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${apiBaseUrl(baseUrl)}/projects`,
      { headers: { authorization: `Token ${apiKey}` } },
      timeoutMs,
      signal,
    ),
};
