/**
 * How an account can speak with a catalog voice: its own key for the voice's provider (`account_key`), the
 * platform's key for a tier the account has (`platform`), the offline engine itself (`offline`), or, on a
 * deployment that allows it (SPEECH_OFFLINE_STAND_IN), the offline engine standing in for a provider with no key
 * (`development_stand_in`: the voice is not the one its provider would speak).
 */
export const VOICE_AVAILABILITIES = ['account_key', 'platform', 'offline', 'development_stand_in'] as const;
export type VoiceAvailability = (typeof VOICE_AVAILABILITIES)[number];
