// Offline speech engines: flite TTS with its text carried in-band under the speech, and the STT that reads it.
export * from './crc16';
export * from './speech-band';
export * from './text-modem';
export * from './wav';
export * from './flite-engine';
export * from './offline-speech';
export * from './offline-transcriber';
