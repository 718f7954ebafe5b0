// The platform's language-model adapters: live-call chat with tools, post-call extraction, and the two
// engines behind them (an OpenAI-compatible client and the deterministic offline engine).
export * from './chat-model';
export * from './language-model';
export * from './llm-error';
export * from './agent-tools';
export * from './extraction';
export * from './analysis';
export * from './openai-compatible-chat-model';
export * from './offline-chat-model';
export * from './create-chat-model';
export * from './api-base-url';
export * from './key-check';
export * from './plugin';
export * from './model-registry';
export * from './planned-model';
export * from './openai';
export * from './azure-openai';
export * from './gemini';
export * from './anthropic';
export * from './openai-compatible';
export * from './custom';
export * from './realtime';
