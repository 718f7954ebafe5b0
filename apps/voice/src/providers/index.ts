// Speech providers of the voice service, chosen by settings: offline (no network), an OpenAI-compatible HTTP API,
// or a Deepgram-compatible live WebSocket; a list of them is the order a call falls back along.
import { DeepgramSttProvider } from './deepgram-stt.provider';
import { OfflineSttProvider } from './offline-stt.provider';
import { OfflineTtsProvider } from './offline-tts.provider';
import { OpenAiSttProvider } from './openai-stt.provider';
import { OpenAiTtsProvider } from './openai-tts.provider';
import { STT_PROVIDERS, TTS_PROVIDERS } from '@vap/messages';
import {
  providerListProblem,
  providerNames,
  type NetworkProviderConfig,
  type SpeechSettings,
} from './speech-settings';
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
  setting: string,
  prefix: 'STT' | 'STT_FALLBACK' | 'TTS',
  settings: SpeechSettings,
): NetworkProviderConfig {
  const read = (name: 'BASE_URL' | 'API_KEY' | 'MODEL') =>
    (settings as unknown as Record<string, string | undefined>)[`${prefix}_${name}`]?.trim() || undefined;
  const [baseUrl, apiKey, model] = [read('BASE_URL'), read('API_KEY'), read('MODEL')];
  const missing = [!baseUrl && `${prefix}_BASE_URL`, !apiKey && `${prefix}_API_KEY`].filter(Boolean);
  if (missing.length) throw new Error(`${setting} needs ${missing.join(' and ')}`);
  const timeoutMs = settings.PROVIDER_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new Error(`PROVIDER_TIMEOUT_MS must be a positive number (got ${timeoutMs})`);
  return { baseUrl: baseUrl!, apiKey: apiKey!, model, timeoutMs };
}

/**
 * The STT and TTS providers the settings choose, in the order a call falls back along them. Of a list's network
 * providers the first takes the `STT_*` / `TTS_*` settings and the second `STT_FALLBACK_*` (only STT has two
 * kinds). Throws when a list is malformed or a network provider lacks its settings.
 */
export function createSpeechProviders(settings: SpeechSettings): { stt: SttProvider[]; tts: TtsProvider[] } {
  const sttSetting = `STT_PROVIDER=${settings.STT_PROVIDER}`;
  const sttProblem = providerListProblem(settings.STT_PROVIDER, STT_PROVIDERS);
  if (sttProblem) throw new Error(`STT_PROVIDER ${sttProblem} (got ${String(settings.STT_PROVIDER)})`);
  let networkStt = 0;
  const stt = providerNames(settings.STT_PROVIDER).map((name): SttProvider => {
    if (name === 'offline') return new OfflineSttProvider();
    const config = networkConfig(sttSetting, networkStt++ === 0 ? 'STT' : 'STT_FALLBACK', settings);
    return name === 'openai' ? new OpenAiSttProvider(config) : new DeepgramSttProvider(config);
  });
  const ttsProblem = providerListProblem(settings.TTS_PROVIDER, TTS_PROVIDERS);
  if (ttsProblem) throw new Error(`TTS_PROVIDER ${ttsProblem} (got ${String(settings.TTS_PROVIDER)})`);
  const tts = providerNames(settings.TTS_PROVIDER).map((name): TtsProvider =>
    name === 'offline'
      ? new OfflineTtsProvider()
      : new OpenAiTtsProvider(networkConfig(`TTS_PROVIDER=${settings.TTS_PROVIDER}`, 'TTS', settings)),
  );
  return { stt, tts };
}
