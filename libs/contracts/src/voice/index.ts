export * from './agent-settings';
export * from './voice-commands';
