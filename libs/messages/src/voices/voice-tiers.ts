import type { VoiceAvailability } from './voice-availability';

/** A partner's voice tier, lowest first: it decides which voices the partner's agents may use. */
export const VOICE_TIERS = ['standard', 'premium', 'enterprise'] as const;
export type VoiceTier = (typeof VOICE_TIERS)[number];

export const VOICE_GENDERS = ['female', 'male'] as const;
export type VoiceGender = (typeof VOICE_GENDERS)[number];

/** Rank of a tier: a partner is entitled to every voice whose tier ranks at or below its own. */
export function voiceTierRank(tier: string): number {
  const rank = (VOICE_TIERS as readonly string[]).indexOf(tier);
  // An unknown tier entitles to the base tier only, never to more.
  return rank < 0 ? 0 : rank;
}

/** The tiers a partner of the given tier may use, lowest first. */
export function entitledVoiceTiers(tier: string): VoiceTier[] {
  return VOICE_TIERS.slice(0, voiceTierRank(tier) + 1);
}

/** A voice an agent can speak with, as the agents service lists it (agents.voice_configuration.list). */
export interface VoiceConfiguration {
  id: string;
  display_name: string;
  description: string;
  provider: string;
  model_name: string;
  tier: VoiceTier;
  provider_voice_id: string;
  speed: number;
  volume: number;
  language: string;
  gender: VoiceGender;
  preview_text: string;
  status: 'active';
  /** How this account can speak with the voice (the catalog lists only voices it can). */
  availability: VoiceAvailability;
  created_at: string;
  updated_at: string;
}

export interface VoiceConfigurationList {
  voice_configurations: VoiceConfiguration[];
}
