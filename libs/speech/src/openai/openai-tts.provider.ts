import { apiBaseUrl } from '@vap/llm';
import { CloudTtsProvider, type TtsCall } from '../cloud-tts-provider';
import type { TtsRequest } from '../tts-provider';

/** OpenAI's `pcm` response format: 24 kHz, 16-bit little-endian, mono. */
const PCM_SAMPLE_RATE = 24000;

/**
 * OpenAI-compatible TTS: streams `<base>/audio/speech` as raw PCM and resamples to 8 kHz chunk by chunk, so the
 * first audio goes out while the rest is still being synthesized. The deadline runs to the first byte and then
 * between chunks (a stalled stream is a failure, not a silent line); it pauses while the pipeline consumes.
 */
export class OpenAiTtsProvider extends CloudTtsProvider {
  readonly name = 'openai' as const;

  protected async *speak({ text, voice }: TtsRequest, call: TtsCall) {
    yield* this.postForPcm(
      call,
      `${apiBaseUrl(this.config.baseUrl)}/audio/speech`,
      {
        headers: { authorization: `Bearer ${this.config.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: this.config.model || voice.model,
          input: text,
          voice: voice.providerVoiceId,
          response_format: 'pcm',
          // The API accepts 0.25-4.
          speed: Math.min(4, Math.max(0.25, voice.speed || 1)),
        }),
      },
      { sampleRate: PCM_SAMPLE_RATE, gain: voice.volume ?? 1 },
    );
  }
}
