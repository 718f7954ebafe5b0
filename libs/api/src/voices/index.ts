export * from './voice-configuration.dto';
export * from './agent-voice.dto';
export * from './background-audio.dto';
export * from './catalog-voice.dto';
