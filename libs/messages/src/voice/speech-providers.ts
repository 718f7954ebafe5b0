// The speech providers the voice service runs, by name: what an agent's transcriber and voice choose from.

/**
 * Speech-to-text providers the voice service runs. `local` is PocketSphinx on the replica itself (no key, US
 * English), the development default; `offline` the deterministic signal engine (it understands only the
 * platform's own synthetic speech, for tests); the others are cloud providers a partner brings a key for, or the
 * platform pays for.
 */
export const STT_PROVIDERS = ['offline', 'local', 'openai', 'deepgram', 'assemblyai', 'sarvam'] as const;
export type SttProviderName = (typeof STT_PROVIDERS)[number];
/**
 * Text-to-speech providers the voice service runs (`local`: eSpeak NG on the replica, no key, the development
 * default; `offline`: the deterministic signal engine, flite with its text in-band, for tests).
 */
export const TTS_PROVIDERS = [
  'offline',
  'local',
  'openai',
  'elevenlabs',
  'cartesia',
  'deepgram',
  'azure',
  'sarvam',
] as const;
export type TtsProviderName = (typeof TTS_PROVIDERS)[number];
/** The cloud speech providers: a key is stored per account (provider credentials) or set for the platform. */
export const SPEECH_PROVIDERS = [
  'openai',
  'elevenlabs',
  'cartesia',
  'deepgram',
  'azure',
  'sarvam',
  'assemblyai',
] as const;
export type SpeechProviderName = (typeof SPEECH_PROVIDERS)[number];
