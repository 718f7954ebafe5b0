import type { SpokenLanguage } from '@vap/messages';
import { INDIAN_LOCALES } from '../languages';
import { checkKeyByRequest } from '@vap/llm';
import type { SpeechPlugin } from '../plugin';
import { SARVAM_STT_DEFAULT_MODEL, SarvamSttProvider } from './sarvam-stt.provider';
import { SARVAM_TTS_DEFAULT_MODEL, SarvamTtsProvider } from './sarvam-tts.provider';
import { SARVAM_KEY_HEADER, sarvamRestBase } from './sarvam-urls';

export {
  SARVAM_AUTO_LANGUAGE,
  SARVAM_STT_DEFAULT_MODEL,
  SarvamSttProvider,
  SarvamSttSession,
  sarvamLanguageCode,
  sarvamSttUrl,
} from './sarvam-stt.provider';
export { SARVAM_TTS_DEFAULT_MODEL, SarvamTtsProvider, sarvamTargetLanguage } from './sarvam-tts.provider';
export { sarvamRestBase, sarvamSocketBase } from './sarvam-urls';

/** Every spoken_languages code has a Sarvam locale (Hinglish as Hindi of India). */
const SARVAM_LANGUAGES = Object.keys(INDIAN_LOCALES) as SpokenLanguage[];

/** Sarvam AI: Bulbul streaming TTS and streaming STT for Indian languages. */
export const sarvamPlugin: SpeechPlugin = {
  name: 'sarvam',
  label: 'Sarvam AI',
  defaultBaseUrl: 'https://api.sarvam.ai',
  tts: {
    create: (config) => new SarvamTtsProvider(config),
    streaming: true,
    pronunciations: 'alias',
    languages: SARVAM_LANGUAGES,
    defaultModel: SARVAM_TTS_DEFAULT_MODEL,
  },
  stt: {
    create: (config) => new SarvamSttProvider(config),
    streaming: true,
    keyterms: false,
    codeSwitching: true,
    languages: SARVAM_LANGUAGES,
    defaultModel: SARVAM_STT_DEFAULT_MODEL,
  },
  // Sarvam has no free authenticated GET: language identification of two letters is its cheapest call.
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${sarvamRestBase(baseUrl)}/text-lid`,
      {
        method: 'POST',
        headers: { [SARVAM_KEY_HEADER]: apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'ok' }),
      },
      timeoutMs,
      signal,
    ),
};
