import { SPOKEN_LANGUAGES } from '@vap/messages';
import { checkKeyByRequest } from '@vap/llm';
import type { SpeechPlugin } from '../plugin';
import { AzureTtsProvider, azureBaseUrl } from './azure-tts.provider';

export { AzureTtsProvider, AZURE_OUTPUT_FORMAT, azureBaseUrl } from './azure-tts.provider';
export { azureLocale, azureSsml, ssmlContent, xmlEscape } from './azure-ssml';

/** Azure Speech: SSML synthesis over REST, on the host of the key's region. */
export const azurePlugin: SpeechPlugin = {
  name: 'azure',
  label: 'Azure Speech',
  defaultBaseUrl: 'https://{region}.tts.speech.microsoft.com',
  needsRegion: true,
  tts: {
    create: (config) => new AzureTtsProvider(config),
    streaming: true,
    pronunciations: 'ssml',
    // Azure has neural voices for every language the platform offers (Hinglish is voiced by hi-IN voices).
    languages: SPOKEN_LANGUAGES,
    // Azure names voices, not models: every catalog voice is a neural one.
    defaultModel: 'neural',
  },
  checkKey: async (request, signal) => {
    let base: string;
    try {
      base = azureBaseUrl(request);
    } catch (error) {
      return { ok: false, reason: 'rejected', message: (error as Error).message };
    }
    return checkKeyByRequest(
      `${base}/cognitiveservices/voices/list`,
      { headers: { 'ocp-apim-subscription-key': request.apiKey } },
      request.timeoutMs,
      signal,
    );
  },
};
