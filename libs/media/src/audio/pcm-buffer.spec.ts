import { PcmBuffer } from './pcm-buffer';

const frame = (...samples: number[]) => Int16Array.from(samples);

describe('PcmBuffer', () => {
  it('appends frames, copying them, and grows past its first capacity keeping what it held', () => {
    const buffer = new PcmBuffer(4);
    const reused = new Int16Array(3);
    for (let i = 0; i < 5; i++) {
      reused.set([i * 3 + 1, i * 3 + 2, i * 3 + 3]);
      buffer.write(reused);
    }
    expect(buffer.length).toBe(15);
    expect([...buffer.copy()]).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
  });

  it('places a frame at a later index with silence between, never before what is written', () => {
    const buffer = new PcmBuffer(4);
    buffer.write(frame(1, 2));
    buffer.write(frame(3), 5);
    buffer.write(frame(4), 0);
    expect([...buffer.copy()]).toEqual([1, 2, 0, 0, 0, 3, 4]);
    expect(buffer.sample(5)).toBe(3);
    expect(buffer.sample(7)).toBe(0);
  });

  it('starts over on clear(), and a gap after it is silence, not the audio from before', () => {
    const buffer = new PcmBuffer(8);
    buffer.write(frame(9, 9, 9, 9, 9));
    const before = buffer.copy();
    buffer.clear();
    expect(buffer.length).toBe(0);
    buffer.write(frame(1), 3);
    expect([...buffer.copy()]).toEqual([0, 0, 0, 1]);
    // A copy is its own: what was taken before the clear is unchanged.
    expect([...before]).toEqual([9, 9, 9, 9, 9]);
  });
});
