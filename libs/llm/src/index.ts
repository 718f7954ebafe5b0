// The platform's language-model adapters: live-call chat with tools, and the models behind it.
export * from './chat-model';
export * from './create-chat-model';
