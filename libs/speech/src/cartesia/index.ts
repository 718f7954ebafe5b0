import { SPOKEN_LANGUAGES } from '@vap/messages';
import { checkKeyByRequest } from '@vap/llm';
import type { SpeechPlugin } from '../plugin';
import {
  CARTESIA_DEFAULT_MODEL,
  cartesiaApiBase,
  cartesiaHeaders,
  CartesiaTtsProvider,
} from './cartesia-tts.provider';

export {
  CartesiaTtsProvider,
  CARTESIA_DEFAULT_MODEL,
  CARTESIA_VERSION,
  cartesiaApiBase,
  cartesiaGenerationRequest,
  cartesiaHeaders,
} from './cartesia-tts.provider';

/** Cartesia: Sonic text to speech over its TTS WebSocket. */
export const cartesiaPlugin: SpeechPlugin = {
  name: 'cartesia',
  label: 'Cartesia',
  defaultBaseUrl: 'https://api.cartesia.ai',
  tts: {
    create: (config) => new CartesiaTtsProvider(config),
    streaming: true,
    pronunciations: 'alias',
    // Sonic speaks English, Hindi and the regional languages of the catalog (Hinglish as Hindi).
    languages: SPOKEN_LANGUAGES,
    defaultModel: CARTESIA_DEFAULT_MODEL,
  },
  // The cheapest authenticated call: one page of one voice.
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${cartesiaApiBase(baseUrl)}/voices?limit=1`,
      { headers: cartesiaHeaders(apiKey) },
      timeoutMs,
      signal,
    ),
};
