// Media-speaking fakes for the voice e2e tests: the carriers' side of media streams and the AI providers.
export {
  activeFraction,
  audioLevelDbfs,
  dialedNumber,
  SPEECH_LEVEL_DBFS,
  spokenAudio,
  streamInstructionOf,
  textsIn,
  unescapeXml,
  voiceBuzz,
} from '@vap/carrier-sim';
export type { SpokenAudioOptions, StreamInstruction } from '@vap/carrier-sim';
export * from './media-client';
export * from './ai/failures';
export { echoScript, handleChatCompletion, lastUserText, POST_CALL_ANSWER } from '@vap/llm/testing';
export type {
  ChatCompletionRequest,
  ChatMessageIn,
  ChatScript,
  ScriptedToolCall,
  ScriptedTurn,
} from '@vap/llm/testing';
export * from './ai/openai-speech';
export * from './ai/fake-ai-server';
