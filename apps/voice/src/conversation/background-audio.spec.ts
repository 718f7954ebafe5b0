import { levelDbfs } from '@vap/media';
import { ambienceClip, backgroundAudioFor, BACKGROUND_AUDIO_IDS } from './background-audio';

describe('background audio', () => {
  it('renders each catalog asset differently, and the same asset the same', () => {
    const [a, b] = BACKGROUND_AUDIO_IDS;
    expect(ambienceClip(a)).toBe(ambienceClip(a));
    expect(Buffer.from(ambienceClip(a).buffer).equals(Buffer.from(ambienceClip(b).buffer))).toBe(false);
  });

  it('plays at the agent volume, null meaning the 0.3 default, and nothing without an id or at 0', () => {
    const id = BACKGROUND_AUDIO_IDS[0];
    const full = backgroundAudioFor(id, 1)!.next(8000);
    const quiet = backgroundAudioFor(id, 0.3)!.next(8000);
    const byDefault = backgroundAudioFor(id, null)!.next(8000);
    expect(levelDbfs(full) - levelDbfs(quiet)).toBeCloseTo(-20 * Math.log10(0.3), 0);
    expect(Array.from(byDefault)).toEqual(Array.from(quiet));
    expect(backgroundAudioFor(null, 1)).toBeNull();
    expect(backgroundAudioFor(id, 0)).toBeNull();
  });
});
