import { checkKeyByRequest } from '@vap/llm';
import type { KeyCheck, SpeechPlugin } from '../plugin';
import {
  ELEVENLABS_DEFAULT_MODEL,
  elevenLabsApiBase,
  ElevenLabsTtsProvider,
} from './elevenlabs-tts.provider';

export {
  ElevenLabsTtsProvider,
  ELEVENLABS_DEFAULT_MODEL,
  elevenLabsApiBase,
  elevenLabsRequest,
  type ElevenLabsRequest,
} from './elevenlabs-tts.provider';

/**
 * A key scoped away from reading the user (ElevenLabs keys can be limited to text to speech) is still a key
 * ElevenLabs recognised: it answers 401 `missing_permissions`, where an unknown key is `invalid_api_key`.
 */
const MISSING_PERMISSION = /missing the permission|missing_permissions/i;

/** ElevenLabs: text to speech over the stream-input WebSocket. */
export const elevenLabsPlugin: SpeechPlugin = {
  name: 'elevenlabs',
  label: 'ElevenLabs',
  defaultBaseUrl: 'https://api.elevenlabs.io',
  tts: {
    create: (config) => new ElevenLabsTtsProvider(config),
    streaming: true,
    // Plain aliases for every model; the English-only models that take SSML phoneme tags get the IPA too.
    pronunciations: 'alias',
    // Of the spoken languages, what the multilingual and v2.5 models speak (Hinglish as Hindi).
    languages: ['en', 'hinglish', 'hi', 'ta'],
    defaultModel: ELEVENLABS_DEFAULT_MODEL,
  },
  checkKey: async ({ apiKey, baseUrl, timeoutMs }, signal): Promise<KeyCheck> => {
    const check = await checkKeyByRequest(
      `${elevenLabsApiBase(baseUrl)}/v1/user`,
      { headers: { 'xi-api-key': apiKey } },
      timeoutMs,
      signal,
    );
    if (!check.ok && check.reason === 'rejected' && MISSING_PERMISSION.test(check.message))
      return { ok: true };
    return check;
  },
};
