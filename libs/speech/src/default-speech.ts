// The deployment's default speech (STT_PROVIDER / TTS_PROVIDER and their STT_*, STT_FALLBACK_*, TTS_* settings):
// what serves an agent whose own choice has no key. A list is the order a call falls back along. `local` (eSpeak
// NG and PocketSphinx on the replica) and `offline` (the signal engine) need no key.
import { STT_PROVIDERS, TTS_PROVIDERS } from '@vap/messages';
import {
  defaultPythonPath,
  defaultSttWorkers,
  LocalSttProvider,
  LocalTtsProvider,
  type LocalSpeechSettings,
} from './local';
import { OfflineSttProvider, OfflineTtsProvider } from './offline';
import { sttCapabilities, ttsCapabilities } from './registry';
import {
  providerListProblem,
  providerNames,
  type NetworkProviderConfig,
  type SpeechSettings,
} from './speech-settings';
import type { SttProvider } from './stt-provider';
import type { TtsProvider } from './tts-provider';

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

/** Local speech's programs and recogniser count from the settings (LOCAL_SPEECH_*, LOCAL_STT_WORKERS). */
export function localSpeechSettings(settings: SpeechSettings): LocalSpeechSettings {
  return {
    pythonPath: settings.LOCAL_SPEECH_PYTHON?.trim() || defaultPythonPath(),
    espeakPath: settings.LOCAL_SPEECH_ESPEAK?.trim() || 'espeak-ng',
    sttWorkers: settings.LOCAL_STT_WORKERS || defaultSttWorkers(),
    timeoutMs: settings.PROVIDER_TIMEOUT_MS,
  };
}

export interface SpeechProviderOptions {
  /**
   * Why local speech cannot run on this machine (see localSpeechProblem): `local` is then served by the offline
   * signal engine, so calls still run.
   */
  localProblem?: string;
}

/**
 * The STT and TTS providers the settings choose, in the order a call falls back along them. Of a list's network
 * providers the first takes the `STT_*` / `TTS_*` settings and the second `STT_FALLBACK_*` (only STT has two
 * kinds). `local` needs no settings. Throws when a list is malformed or a network provider lacks its settings.
 */
export function createSpeechProviders(
  settings: SpeechSettings,
  options: SpeechProviderOptions = {},
): { stt: SttProvider[]; tts: TtsProvider[] } {
  const local = localSpeechSettings(settings);
  const sttSetting = `STT_PROVIDER=${settings.STT_PROVIDER}`;
  const sttProblem = providerListProblem(settings.STT_PROVIDER, STT_PROVIDERS);
  if (sttProblem) throw new Error(`STT_PROVIDER ${sttProblem} (got ${String(settings.STT_PROVIDER)})`);
  let networkStt = 0;
  const stt = providerNames(settings.STT_PROVIDER).map((name): SttProvider => {
    if (name === 'offline') return new OfflineSttProvider();
    if (name === 'local')
      return options.localProblem ? new OfflineSttProvider() : new LocalSttProvider(local);
    const capabilities = sttCapabilities(name);
    if (!capabilities) throw new Error(`${sttSetting}: ${name} has no speech-to-text adapter`);
    return capabilities.create(
      networkConfig(sttSetting, networkStt++ === 0 ? 'STT' : 'STT_FALLBACK', settings),
    );
  });
  const ttsSetting = `TTS_PROVIDER=${settings.TTS_PROVIDER}`;
  const ttsProblem = providerListProblem(settings.TTS_PROVIDER, TTS_PROVIDERS);
  if (ttsProblem) throw new Error(`TTS_PROVIDER ${ttsProblem} (got ${String(settings.TTS_PROVIDER)})`);
  let networkTts = 0;
  const tts = providerNames(settings.TTS_PROVIDER).map((name): TtsProvider => {
    if (name === 'offline') return new OfflineTtsProvider();
    if (name === 'local')
      return options.localProblem ? new OfflineTtsProvider() : new LocalTtsProvider(local);
    const capabilities = ttsCapabilities(name);
    if (!capabilities) throw new Error(`${ttsSetting}: ${name} has no text-to-speech adapter`);
    if (networkTts++ > 0) throw new Error(`${ttsSetting}: only one network provider has settings (TTS_*)`);
    return capabilities.create(networkConfig(ttsSetting, 'TTS', settings));
  });
  return { stt, tts };
}
