export * from './voice-tiers';
