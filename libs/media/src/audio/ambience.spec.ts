import { AMBIENCE_SEAM_MS, AmbienceLoop, synthesizeOfficeAmbience } from './ambience';
import { levelDbfs } from './pcm';
import { countZeroCrossings, sineWave, whiteNoise } from './signals';

describe('AmbienceLoop', () => {
  it('plays the clip and wraps around, across calls of any size', () => {
    const clip = Int16Array.from({ length: 1000 }, (_, i) => i + 1);
    const loop = new AmbienceLoop(clip);
    const seam = (8000 * AMBIENCE_SEAM_MS) / 1000;
    expect(loop.length).toBe(1000 - seam);
    const a = loop.next(700);
    const b = loop.next(700);
    const both = [...a, ...b];
    // Past the crossfaded start the loop is the clip; after a pass it repeats exactly.
    expect(both.slice(seam, loop.length)).toEqual([...clip.subarray(seam, loop.length)]);
    for (let i = 0; i < 1400 - loop.length; i++) expect(both[i + loop.length]).toBe(both[i]);
  });

  it('loops without a click even when the clip does not end where it starts', () => {
    // 3 s of a 330 Hz tone does not end on a whole cycle; a bare wrap would jump.
    const clip = sineWave(330, 24_013, 8000, 8000, 0.7);
    const loop = new AmbienceLoop(clip);
    const out = loop.next(loop.length + 400);
    // Largest step inside the tone itself: 8000 * 2 * pi * 330 / 8000 ~ 2073.
    let worst = 0;
    for (let i = loop.length - 200; i < loop.length + 200; i++)
      worst = Math.max(worst, Math.abs(out[i] - out[i - 1]));
    expect(worst).toBeLessThan(2200);
    const bareJump = Math.abs(clip[0] - clip[clip.length - 1]);
    expect(bareJump).toBeGreaterThan(4000);
  });

  it('applies and changes its volume, mixing under speech with clipping', () => {
    const clip = new Int16Array(800).fill(1000);
    const loop = new AmbienceLoop(clip, 0.25);
    expect([...loop.next(3)]).toEqual([250, 250, 250]);
    loop.volume = 0;
    expect([...loop.next(3)]).toEqual([0, 0, 0]);
    loop.volume = 1;
    const speech = Int16Array.from([100, -200, 32000]);
    expect(loop.mixUnder(speech)).toBe(speech);
    expect([...speech]).toEqual([1100, 800, 32767]);
    const out = new Int16Array(2);
    expect([...loop.mixUnder(Int16Array.from([1, 2]), out)]).toEqual([1001, 1002]);
  });

  it('refuses an empty clip', () => {
    expect(() => new AmbienceLoop(new Int16Array(0))).toThrow(RangeError);
  });
});

describe('synthesizeOfficeAmbience', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = synthesizeOfficeAmbience({ seconds: 2, seed: 11 });
    expect([...synthesizeOfficeAmbience({ seconds: 2, seed: 11 })]).toEqual([...a]);
    expect([...synthesizeOfficeAmbience({ seconds: 2, seed: 12 })]).not.toEqual([...a]);
    expect(a).toHaveLength(16000);
  });

  it('has the requested level and a low-frequency (murmur, hum) character', () => {
    const bed = synthesizeOfficeAmbience({ seconds: 4, levelDbfs: -30 });
    expect(levelDbfs(bed)).toBeCloseTo(-30, 0);
    const white = whiteNoise(bed.length, -30);
    expect(countZeroCrossings(bed)).toBeLessThan(countZeroCrossings(white) / 4);
    // Not a steady tone: the level moves over time.
    const quarters = [0, 1, 2, 3].map((q) => levelDbfs(bed.subarray(q * 8000, (q + 1) * 8000)));
    expect(Math.max(...quarters) - Math.min(...quarters)).toBeGreaterThan(0.5);
  });

  it('plays as a loop under speech', () => {
    const loop = new AmbienceLoop(synthesizeOfficeAmbience({ seconds: 1 }), 0.5);
    const frame = loop.mixUnder(new Int16Array(160));
    expect(levelDbfs(frame)).toBeLessThan(-35);
    expect(levelDbfs(frame)).toBeGreaterThan(-60);
  });
});
