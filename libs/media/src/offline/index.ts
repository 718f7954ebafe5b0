// Offline speech engines' in-band text modem: TTS carries its text under the speech, STT reads it back.
export * from './crc16';
export * from './speech-band';
export * from './text-modem';
