import { request } from 'undici';
import { baseUrlFor } from '../plugin';
import { ProviderError } from '../provider-error';
import { rawPcm16Pieces } from '../raw-pcm-stream';
import { RequestDeadline } from '../request-deadline';
import type { NetworkProviderConfig } from '../speech-settings';
import type { TtsProvider, TtsRequest } from '../tts-provider';
import { azureSsml } from './azure-ssml';

/** Raw (headerless) 16-bit mono PCM at the carriers' rate: nothing to strip or resample. */
export const AZURE_OUTPUT_FORMAT = 'raw-8khz-16bit-mono-pcm';
const SAMPLE_RATE = 8000;
const ERROR_EXCERPT_CHARS = 300;
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
export class AzureTtsProvider implements TtsProvider {
  readonly name = 'azure' as const;

  constructor(private readonly config: NetworkProviderConfig) {}

  async *synthesize(
    { text, voice, pronunciations }: TtsRequest,
    signal?: AbortSignal,
  ): AsyncIterable<Int16Array> {
    // Nothing to say is no request (Azure would bill an empty document).
    if (signal?.aborted || !text.trim()) return;
    const deadline = new RequestDeadline('speech synthesis', this.config.timeoutMs, signal);
    let body: Awaited<ReturnType<typeof request>>['body'] | undefined;
    try {
      const res = await request(`${azureBaseUrl(this.config)}/cognitiveservices/v1`, {
        method: 'POST',
        headers: {
          'ocp-apim-subscription-key': this.config.apiKey,
          'content-type': 'application/ssml+xml',
          'x-microsoft-outputformat': AZURE_OUTPUT_FORMAT,
          'user-agent': USER_AGENT,
        },
        body: azureSsml(text, voice, pronunciations),
        signal: deadline.signal,
      });
      body = res.body;
      if (res.statusCode < 200 || res.statusCode >= 300) {
        // Azure often answers an error with an empty body; the status says what kind.
        const answer = await res.body.text().catch(() => '');
        throw new Error(`HTTP ${res.statusCode}${answer ? `: ${answer.slice(0, ERROR_EXCERPT_CHARS)}` : ''}`);
      }
      yield* rawPcm16Pieces(res.body as AsyncIterable<Buffer>, { sampleRate: SAMPLE_RATE, deadline, signal });
    } catch (error) {
      if (deadline.callerAborted) return;
      throw new ProviderError('tts', 'azure', deadline.timeout ?? error);
    } finally {
      deadline.release();
      // Stopped early (barge-in, consumer broke off): drop the rest of the answer and free the connection.
      if (body && !body.destroyed) body.destroy();
    }
  }
}
