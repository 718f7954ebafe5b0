export * from './voice-tiers';
export * from './voice-availability';
export * from './voice-preview';
