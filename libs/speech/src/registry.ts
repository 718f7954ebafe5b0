// The cloud speech providers, one plugin each (its folder holds the adapters, its key check and its fake). A
// provider's settings name it: the platform's own key, base URL and tiers (SPEECH_<NAME>_*), a partner's key.
import type { SpeechProviderName, SttProviderName, TtsProviderName } from '@vap/messages';
import { assemblyAiPlugin } from './assemblyai';
import { azurePlugin } from './azure';
import { cartesiaPlugin } from './cartesia';
import { deepgramPlugin } from './deepgram';
import { elevenLabsPlugin } from './elevenlabs';
import { openAiPlugin } from './openai';
import type { SpeechPlugin, SttCapabilities, TtsCapabilities } from './plugin';
import { sarvamPlugin } from './sarvam';

export const SPEECH_PLUGINS: Readonly<Record<SpeechProviderName, SpeechPlugin>> = {
  openai: openAiPlugin,
  deepgram: deepgramPlugin,
  elevenlabs: elevenLabsPlugin,
  cartesia: cartesiaPlugin,
  azure: azurePlugin,
  sarvam: sarvamPlugin,
  assemblyai: assemblyAiPlugin,
};

export function speechPlugin(name: string): SpeechPlugin | undefined {
  return Object.prototype.hasOwnProperty.call(SPEECH_PLUGINS, name)
    ? SPEECH_PLUGINS[name as SpeechProviderName]
    : undefined;
}

export function ttsCapabilities(name: TtsProviderName | string): TtsCapabilities | undefined {
  return speechPlugin(name)?.tts;
}

export function sttCapabilities(name: SttProviderName | string): SttCapabilities | undefined {
  return speechPlugin(name)?.stt;
}
