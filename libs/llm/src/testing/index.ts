// Fakes of the model providers, for tests and benchmarks: each speaks its provider's published protocol on a local
// port, records what it was asked and can be told to fail or stall.
export * from './fake-chat-server';
export * from './fake-realtime-conversation';
export * from './fake-openai-realtime-server';
export * from './fake-gemini-live-server';
export * from './fake-anthropic-server';
export * from './fake-gemini-server';
export * from './scripted-chat-model';
export * from './voice-call-script';
