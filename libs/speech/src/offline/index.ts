export { OfflineSttProvider } from './offline-stt.provider';
export { OfflineTtsProvider, fliteVoiceFor } from './offline-tts.provider';
