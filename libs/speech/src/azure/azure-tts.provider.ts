import { CloudTtsProvider, type TtsCall } from '../cloud-tts-provider';
import { baseUrlFor } from '../plugin';
import type { NetworkProviderConfig } from '../speech-settings';
import type { TtsRequest } from '../tts-provider';
import { azureSsml } from './azure-ssml';

/** Raw (headerless) 16-bit mono PCM at the carriers' rate: nothing to strip or resample. */
export const AZURE_OUTPUT_FORMAT = 'raw-8khz-16bit-mono-pcm';
const SAMPLE_RATE = 8000;
/** Azure asks every client to name itself. */
const USER_AGENT = 'vap-speech';

/** The REST base of a credential: the configured URL with its region put in, without a trailing slash. */
export function azureBaseUrl(config: Pick<NetworkProviderConfig, 'baseUrl' | 'region'>): string {
  const base = baseUrlFor(config.baseUrl.trim(), config.region?.trim()).replace(/\/+$/, '');
  if (base.includes('{region}')) throw new Error('Azure Speech needs the region of its key');
  return base;
}

/**
 * Azure Speech text to speech over REST: POST <region host>/cognitiveservices/v1 with an SSML body (voice,
 * xml:lang, prosody, pronunciations as sub/phoneme) and `X-Microsoft-OutputFormat: raw-8khz-16bit-mono-pcm`,
 * keyed by `Ocp-Apim-Subscription-Key`. The chunked answer goes out piece by piece as it arrives.
 */
export class AzureTtsProvider extends CloudTtsProvider {
  readonly name = 'azure' as const;

  protected async *speak({ text, voice, pronunciations }: TtsRequest, call: TtsCall) {
    // Nothing to say is no request (Azure would bill an empty document).
    if (!text.trim()) return;
    yield* this.postForPcm(
      call,
      `${azureBaseUrl(this.config)}/cognitiveservices/v1`,
      {
        headers: {
          'ocp-apim-subscription-key': this.config.apiKey,
          'content-type': 'application/ssml+xml',
          'x-microsoft-outputformat': AZURE_OUTPUT_FORMAT,
          'user-agent': USER_AGENT,
        },
        body: azureSsml(text, voice, pronunciations),
      },
      { sampleRate: SAMPLE_RATE },
    );
  }
}
