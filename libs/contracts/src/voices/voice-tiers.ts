import { VOICE_TIERS, VoiceTier } from '../accounts';

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
