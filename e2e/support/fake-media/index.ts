// Media-speaking fakes for the voice e2e tests: the carriers' side of media streams and the AI providers.
export * from './speech-audio';
export { dialedNumber, streamInstructionOf, unescapeXml } from '@vap/carrier-sim';
export type { StreamInstruction } from '@vap/carrier-sim';
export * from './media-client';
export * from './ai/failures';
export * from './ai/chat-completions';
export * from './ai/openai-speech';
export * from './ai/fake-ai-server';
