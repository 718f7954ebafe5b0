export * from './mulaw';
export * from './pcm';
export * from './signals';
export * from './resample';
export * from './framer';
export * from './frame-clock';
export * from './vad';
export * from './ambience';
