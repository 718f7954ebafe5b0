// The platform's speech providers: local speech (eSpeak NG, PocketSphinx), the offline signal engine and one
// plugin per cloud provider (its adapters, capabilities and key check), the registry that names them, and the
// deployment's default chain.
export * from './stt-provider';
export * from './tts-provider';
export * from './provider-error';
export * from './request-deadline';
export * from './cloud-tts-provider';
export * from './speech-settings';
export * from './speech-events';
export * from './plugin';
export * from './languages';
export * from './pronunciation-match';
export * from './keyterms';
export * from './registry';
export * from './default-speech';
export * from './offline';
export * from './local';
export * from './openai';
export * from './deepgram';
export * from './azure';
export * from './elevenlabs';
export * from './cartesia';
export * from './assemblyai';
export * from './sarvam';
export * from './provider-table';
