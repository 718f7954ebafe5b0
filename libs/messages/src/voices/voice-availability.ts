/**
 * How an account can speak with a catalog voice: its own key for the voice's provider (`account_key`), the
 * platform's key for a tier the account has (`platform`), an engine of the deployment itself that needs no key
 * (`offline`: the offline engine's voices and local speech's, eSpeak NG), or, on a deployment that allows it
 * (SPEECH_OFFLINE_STAND_IN), the deployment's default speech standing in for a provider with no key
 * (`development_stand_in`: local speech in the voice's language where the voice service runs it, its development
 * default, else the offline engine; the voice is not the one its provider would speak).
 */
export const VOICE_AVAILABILITIES = ['account_key', 'platform', 'offline', 'development_stand_in'] as const;
export type VoiceAvailability = (typeof VOICE_AVAILABILITIES)[number];
