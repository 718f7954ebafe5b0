import { FRAME_MS, Framer, MULAW_FRAME_BYTES, frameBytesFor } from './framer';

function bytes(count: number, start = 0): Buffer {
  const out = Buffer.alloc(count);
  for (let i = 0; i < count; i++) out[i] = (start + i) % 251;
  return out;
}

describe('frame sizes', () => {
  it('is 160 bytes of mu-law per 20 ms at 8 kHz', () => {
    expect(FRAME_MS).toBe(20);
    expect(MULAW_FRAME_BYTES).toBe(160);
    expect(frameBytesFor(8000)).toBe(160);
    expect(frameBytesFor(16000, 2)).toBe(640);
    expect(frameBytesFor(24000, 2, 10)).toBe(480);
  });
});

describe('Framer', () => {
  it('cuts arbitrary chunks into exact frames and keeps the order of bytes', () => {
    const framer = new Framer();
    const input = bytes(1000);
    const frames: Buffer[] = [];
    for (const size of [1, 159, 0, 161, 320, 7, 352]) {
      const start = frames.length * 160 + framer.pendingBytes;
      frames.push(...framer.push(input.subarray(start, start + size)));
    }
    expect(frames).toHaveLength(6);
    expect(frames.every((f) => f.length === 160)).toBe(true);
    expect(Buffer.concat(frames).equals(input.subarray(0, 960))).toBe(true);
    expect(framer.pendingBytes).toBe(40);
  });

  it('pads the remainder with mu-law silence on flush, then holds nothing', () => {
    const framer = new Framer();
    framer.push(bytes(200));
    const last = framer.flush()!;
    expect(last).toHaveLength(160);
    expect(last.subarray(0, 40).equals(bytes(40, 160))).toBe(true);
    expect(last.subarray(40).every((b) => b === 0xff)).toBe(true);
    expect(framer.flush()).toBeUndefined();
    expect(framer.pendingBytes).toBe(0);
  });

  it('returns frames the caller owns (not views of its input)', () => {
    const framer = new Framer(4, 0);
    const input = Buffer.from([1, 2, 3, 4, 5, 6]);
    const [frame] = framer.push(input);
    input.fill(9);
    expect([...frame]).toEqual([1, 2, 3, 4]);
    expect([...framer.flush()!]).toEqual([5, 6, 0, 0]);
  });

  it('drops the remainder on reset', () => {
    const framer = new Framer();
    framer.push(bytes(10));
    framer.reset();
    expect(framer.flush()).toBeUndefined();
    expect(() => new Framer(0)).toThrow(RangeError);
  });
});

describe('Framer.pushEach', () => {
  it('hands out the frames push returns, in order, in one buffer of its own', () => {
    const chunks = [37, 160, 1, 500, 0, 159, 321].map((n, i) => bytes(n, i * 7));
    const pushed = new Framer();
    const expected = chunks.flatMap((chunk) => pushed.push(chunk));
    const framer = new Framer();
    const seen: Buffer[] = [];
    const buffers = new Set<Buffer>();
    for (const chunk of chunks) {
      framer.pushEach(chunk, (frame) => {
        seen.push(Buffer.from(frame));
        buffers.add(frame);
      });
    }
    expect(seen).toEqual(expected);
    expect(framer.pendingBytes).toBe(pushed.pendingBytes);
    expect(framer.flush()).toEqual(pushed.flush());
    // The frame that completes a remainder and the whole frames of a chunk: two buffers, whatever the count.
    expect(buffers.size).toBeLessThanOrEqual(2);
  });
});
