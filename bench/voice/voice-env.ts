// The environment the voice benchmarks start the voice service with: NATS under the run's prefix, the fake
// OpenAI-compatible speech and chat servers, a fresh secrets key (the stream tokens' key derives from it).
import type { BenchNats } from '../support/bench-nats';
import type { FakeSpeechProviders } from './fake-speech-providers';

export function benchVoiceEnv(
  infra: BenchNats,
  providers: Pick<FakeSpeechProviders, 'rootUrl' | 'baseUrl'>,
  secretsKey: string,
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    NATS_URL: infra.nats.url,
    NATS_SUBJECT_PREFIX: infra.prefix,
    SECRETS_KEY: secretsKey,
    MEDIA_TIME_SCALE: '1',
    STT_PROVIDER: 'openai',
    // The speech providers append /v1/audio/..., the chat model appends /chat/completions.
    STT_BASE_URL: providers.rootUrl,
    STT_API_KEY: 'bench',
    STT_MODEL: 'whisper-1',
    TTS_PROVIDER: 'openai',
    TTS_BASE_URL: providers.rootUrl,
    TTS_API_KEY: 'bench',
    TTS_MODEL: 'tts-1',
    LLM_BASE_URL: providers.baseUrl,
    LLM_API_KEY: 'bench',
    LLM_MODEL: 'bench-chat',
    // The fakes listen on 127.0.0.1.
    PROVIDER_ALLOW_PRIVATE_NETWORKS: 'true',
  };
}
