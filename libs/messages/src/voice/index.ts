export * from './agent-settings';
export * from './voice-commands';
export * from './media-stream-end-reasons';
export * from './voice-replicas';
export * from './speech-plan';
