export * from './agent-snapshot';
export * from './voice-commands';
export * from './speech-providers';
export * from './media-stream-end-reasons';
export * from './voice-replicas';
export * from './speech-plan';
export * from './model-plan';
export * from './credential-providers';
