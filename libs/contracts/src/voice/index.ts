export * from './agent-settings';
export * from './voice-commands';
export * from './voice-replicas';
