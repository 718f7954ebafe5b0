import { levelDbfs } from './pcm';
import { countZeroCrossings, seededRandom, sineWave, whiteNoise } from './signals';

describe('sineWave', () => {
  it('has the requested peak, length and starting phase', () => {
    const tone = sineWave(1000, 8000, 8000, 10000);
    expect(tone).toHaveLength(8000);
    expect(Math.max(...tone)).toBe(10000);
    expect(Math.min(...tone)).toBe(-10000);
    expect(tone[0]).toBe(0);
    // 1 kHz at 8 kHz: a quarter period is two samples.
    expect(tone[2]).toBe(10000);
    expect(sineWave(1000, 4, 8000, 10000, Math.PI / 2)[0]).toBe(10000);
  });
});

describe('countZeroCrossings', () => {
  it('counts sign changes, skipping zeros', () => {
    expect(countZeroCrossings(Int16Array.from([1, -1, 0, 0, 2, 3, -4]))).toBe(3);
    expect(countZeroCrossings(Int16Array.from([0, 0, 5, 0, 5]))).toBe(0);
  });

  it('finds about 2f crossings per second in a tone', () => {
    const crossings = countZeroCrossings(sineWave(440, 16000, 16000, 5000, 0.3));
    expect(Math.abs(crossings - 880)).toBeLessThanOrEqual(1);
  });
});

describe('seededRandom', () => {
  it('repeats for a seed, differs across seeds, stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const first = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(first);
    expect(Array.from({ length: 1000 }, () => c())).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = first.reduce((sum, x) => sum + x, 0) / first.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});

describe('whiteNoise', () => {
  it('has the requested level and is deterministic', () => {
    const noise = whiteNoise(8000, -30, 7);
    expect(levelDbfs(noise)).toBeCloseTo(-30, 0);
    expect([...whiteNoise(100, -30, 7)]).toEqual([...noise.subarray(0, 100)]);
    // Broadband: far more zero crossings than a low tone.
    expect(countZeroCrossings(noise)).toBeGreaterThan(3000);
  });
});
