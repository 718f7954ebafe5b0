// Speech providers of the voice service, chosen by settings: offline (default, no network), an OpenAI-compatible
// HTTP API, or a Deepgram-compatible live WebSocket.
import { DeepgramSttProvider } from './deepgram-stt.provider';
import { OfflineSttProvider } from './offline-stt.provider';
import { OfflineTtsProvider } from './offline-tts.provider';
import { OpenAiSttProvider } from './openai-stt.provider';
import { OpenAiTtsProvider } from './openai-tts.provider';
import type { NetworkProviderConfig, SpeechSettings } from './speech-settings';
import type { SttProvider } from './stt-provider';
import type { TtsProvider } from './tts-provider';

export * from './stt-provider';
export * from './tts-provider';
export * from './provider-error';
export * from './speech-settings';
export { OfflineSttProvider } from './offline-stt.provider';
export { OfflineTtsProvider, fliteVoiceFor } from './offline-tts.provider';
export { OpenAiSttProvider } from './openai-stt.provider';
export { OpenAiTtsProvider } from './openai-tts.provider';
export {
  DeepgramSttProvider,
  DeepgramSttSession,
  deepgramListenUrl,
  FINALIZE_GRACE_MS,
  KEEPALIVE_MS,
  type DeepgramTiming,
} from './deepgram-stt.provider';

/** The settings a network provider needs, or a configuration error naming the missing ones. */
function networkConfig(
  kind: 'STT' | 'TTS',
  provider: string,
  baseUrl: string | undefined,
  apiKey: string | undefined,
  model: string | undefined,
  timeoutMs: number,
): NetworkProviderConfig {
  const missing = [!baseUrl?.trim() && `${kind}_BASE_URL`, !apiKey?.trim() && `${kind}_API_KEY`].filter(
    Boolean,
  );
  if (missing.length) {
    throw new Error(`${kind}_PROVIDER=${provider} needs ${missing.join(' and ')}`);
  }
  if (!(timeoutMs > 0)) throw new Error(`PROVIDER_TIMEOUT_MS must be a positive number (got ${timeoutMs})`);
  return { baseUrl: baseUrl!.trim(), apiKey: apiKey!.trim(), model: model?.trim() || undefined, timeoutMs };
}

/** The STT and TTS providers the settings choose. Throws at startup when a network provider lacks its settings. */
export function createSpeechProviders(settings: SpeechSettings): { stt: SttProvider; tts: TtsProvider } {
  const timeout = settings.PROVIDER_TIMEOUT_MS;
  let stt: SttProvider;
  switch (settings.STT_PROVIDER) {
    case 'offline':
      stt = new OfflineSttProvider();
      break;
    case 'openai':
    case 'deepgram': {
      const config = networkConfig(
        'STT',
        settings.STT_PROVIDER,
        settings.STT_BASE_URL,
        settings.STT_API_KEY,
        settings.STT_MODEL,
        timeout,
      );
      stt =
        settings.STT_PROVIDER === 'openai' ? new OpenAiSttProvider(config) : new DeepgramSttProvider(config);
      break;
    }
    default:
      throw new Error(
        `STT_PROVIDER must be offline, openai or deepgram (got ${String(settings.STT_PROVIDER)})`,
      );
  }
  let tts: TtsProvider;
  switch (settings.TTS_PROVIDER) {
    case 'offline':
      tts = new OfflineTtsProvider();
      break;
    case 'openai':
      tts = new OpenAiTtsProvider(
        networkConfig(
          'TTS',
          'openai',
          settings.TTS_BASE_URL,
          settings.TTS_API_KEY,
          settings.TTS_MODEL,
          timeout,
        ),
      );
      break;
    default:
      throw new Error(`TTS_PROVIDER must be offline or openai (got ${String(settings.TTS_PROVIDER)})`);
  }
  return { stt, tts };
}
