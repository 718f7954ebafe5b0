export * from './voice-tiers';
export * from './voice-preview';
