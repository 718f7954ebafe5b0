// Fakes of the cloud speech providers, for tests: each speaks its provider's published protocol on a local port.
export * from './failure-switch';
export * from './fake-provider-server';
export * from './streamed-answer';
export * from './xml-reader';
export * from './deepgram-listen-fake';
export * from './deepgram-speak-fake';
export * from './azure-tts-fake';
export * from './streamed-speech';
export * from './elevenlabs-fake';
export * from './cartesia-fake';
export * from './assemblyai-fake';
export * from './sarvam-fake';
export * from './openai-speech-fake';
export * from './local-voice-languages';
