// background_audio_id / background_audio_volume: the platform's ambience catalog rendered as loops. The catalog
// rows (agents service) name the assets; the audio is synthesised here from a seed derived from the id, so every
// asset sounds different, the same asset sounds the same on every replica, and no binary ships with the image.

import { AgentDefaults } from '@vap/messages';
import { AmbienceLoop, synthesizeOfficeAmbience } from '@vap/media';

/** Seconds of ambience rendered per asset before it loops (the seam is crossfaded). */
export const AMBIENCE_CLIP_SECONDS = 12;

/** The catalog's background audio ids (agents service, voice catalog migration). */
export const BACKGROUND_AUDIO_IDS = [
  '30cbc97d-0fef-4928-a683-6886a260cd0b',
  '70ccec31-3571-410a-bc13-2d0d113db17d',
  '99c94309-570d-4195-9c24-42f9298cb3a5',
  '9118bb16-000f-49c8-9a35-8ca00d75985d',
  'f2ee4e45-19f9-419c-895f-d7b326b94c7f',
  '1200339d-0687-49fa-9d1d-e2a05d158a2f',
] as const;

/** Per-asset character on top of the seed: louder beds for busy rooms, quieter for the street and music. */
const ASSET_LEVELS_DBFS: Record<string, number> = {
  '30cbc97d-0fef-4928-a683-6886a260cd0b': -36, // office
  '70ccec31-3571-410a-bc13-2d0d113db17d': -31, // call centre floor
  '99c94309-570d-4195-9c24-42f9298cb3a5': -33, // cafe
  '9118bb16-000f-49c8-9a35-8ca00d75985d': -38, // quiet street
  'f2ee4e45-19f9-419c-895f-d7b326b94c7f': -37, // soft piano
  '1200339d-0687-49fa-9d1d-e2a05d158a2f': -34, // lo-fi beat
};
const DEFAULT_LEVEL_DBFS = -35;

/** FNV-1a of the id: a stable 32-bit seed. */
function seedOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// Rendering a clip is costly (see warmBackgroundAudio); every call of the same asset shares one (loops only read it).
const clips = new Map<string, Int16Array>();

/** The asset's clip, PCM16 8 kHz. */
export function ambienceClip(id: string): Int16Array {
  let clip = clips.get(id);
  if (!clip) {
    clip = synthesizeOfficeAmbience({
      seconds: AMBIENCE_CLIP_SECONDS,
      seed: seedOf(id),
      levelDbfs: ASSET_LEVELS_DBFS[id] ?? DEFAULT_LEVEL_DBFS,
    });
    clips.set(id, clip);
  }
  return clip;
}

/**
 * Renders every catalog asset now. Rendering one takes 10-20 ms of CPU (far more on a cold or loaded process);
 * the voice service calls this at boot so the first call with an asset does not delay every live call's frames.
 */
export function warmBackgroundAudio(ids: readonly string[] = BACKGROUND_AUDIO_IDS): void {
  for (const id of ids) ambienceClip(id);
}

/**
 * A fresh ambience loop for one call, or null when the agent has no background audio. `volume` is the agent's
 * background_audio_volume (null or out of range falls back to the platform default of 0.3).
 */
export function backgroundAudioFor(id: string | null, volume: number | null): AmbienceLoop | null {
  if (!id) return null;
  const gain =
    volume === null || !Number.isFinite(volume) || volume < 0 ? AgentDefaults.backgroundAudioVolume : volume;
  if (gain === 0) return null;
  return new AmbienceLoop(ambienceClip(id), Math.min(gain, 1));
}
