export * from './voice-configuration.dto';
export * from './agent-voice.dto';
export * from './background-audio.dto';
