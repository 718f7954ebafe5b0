export * from './voice-tiers';
export * from './voice-availability';
