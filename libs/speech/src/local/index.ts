export * from './local-speech';
export {
  LocalTtsProvider,
  LOCAL_TTS_MAX_TEXT_CHARS,
  espeakArgs,
  espeakVoiceFor,
  parseEspeakVoices,
  type EspeakVoices,
} from './local-tts.provider';
export { LocalSttProvider, LOCAL_STT_MAX_UTTERANCE_MS, type LocalSttOptions } from './local-stt.provider';
export {
  PocketSphinxPool,
  POCKETSPHINX_SAMPLE_RATE,
  type PocketSphinxPoolOptions,
} from './pocketsphinx-pool';
export { WavStreamReader, type WavFormat } from './wav-stream';
