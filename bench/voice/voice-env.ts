// The environment the voice benchmarks start the voice service with: NATS under the run's prefix, the fake
// OpenAI-compatible speech and chat servers, and the stream-token key (all voice holds of the calls service's
// SECRETS_KEY).
import type { BenchNats } from '../support/bench-nats';
import type { FakeSpeechProviders } from './fake-speech-providers';

export function benchVoiceEnv(
  infra: BenchNats,
  providers: Pick<FakeSpeechProviders, 'baseUrl'>,
  tokenKey: Buffer,
  maxLiveSessions: number,
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    NATS_URL: infra.nats.url,
    NATS_SUBJECT_PREFIX: infra.prefix,
    STREAM_TOKEN_KEY: tokenKey.toString('base64'),
    MEDIA_TIME_SCALE: '1',
    STT_PROVIDER: 'openai',
    // One base for all three providers (the OpenAI SDK's convention, as a user sets it).
    STT_BASE_URL: providers.baseUrl,
    STT_API_KEY: 'bench',
    STT_MODEL: 'whisper-1',
    TTS_PROVIDER: 'openai',
    TTS_BASE_URL: providers.baseUrl,
    TTS_API_KEY: 'bench',
    TTS_MODEL: 'tts-1',
    LLM_BASE_URL: providers.baseUrl,
    LLM_API_KEY: 'bench',
    LLM_MODEL: 'bench-chat',
    // The fakes listen on 127.0.0.1.
    PROVIDER_ALLOW_PRIVATE_NETWORKS: 'true',
    // A round measures what a replica does at its size, so the replica's own limit must not refuse calls of it.
    MAX_LIVE_SESSIONS: String(maxLiveSessions),
  };
}
