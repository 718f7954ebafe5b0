import { Pcm16Framer, PlaybackQueue, pcm16ToFloat, StreamResampler } from './dsp';

function sine(hz: number, rate: number, count: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / rate);
  return out;
}

function rms(x: Float32Array): number {
  let s = 0;
  for (const v of x) s += v * v;
  return Math.sqrt(s / Math.max(1, x.length));
}

/** Energy at one frequency (Goertzel), normalised to the amplitude of a sine at it. */
function toneAmplitude(x: Float32Array, hz: number, rate: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * hz) / rate);
  let s1 = 0;
  let s2 = 0;
  for (const v of x) {
    const s = v + coeff * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (2 * Math.sqrt(Math.max(0, s1 * s1 + s2 * s2 - coeff * s1 * s2))) / x.length;
}

describe('StreamResampler', () => {
  it('turns 48 kHz into 16 kHz: one output sample for three inputs, whatever the block sizes', () => {
    const input = sine(440, 48000, 48000);
    const whole = new StreamResampler(48000, 16000).process(input);
    const r = new StreamResampler(48000, 16000);
    const parts: Float32Array[] = [];
    for (let at = 0; at < input.length; at += 128) parts.push(r.process(input.subarray(at, at + 128)));
    const joined = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) joined.set(p, (o += p.length) - p.length);
    expect(Math.abs(whole.length - 16000)).toBeLessThanOrEqual(1);
    expect(joined.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(joined[i]).toBeCloseTo(whole[i], 5);
  });

  it('keeps the speech band and the offline modem tones (2.8 and 3.2 kHz) and removes what would fold back', () => {
    for (const hz of [300, 1000, 2800, 3200]) {
      const out = new StreamResampler(48000, 16000).process(sine(hz, 48000, 48000));
      expect(toneAmplitude(out.subarray(100), hz, 16000)).toBeGreaterThan(0.45);
    }
    // 12 kHz at 48 kHz would alias to 4 kHz at 16 kHz without the low-pass.
    const out = new StreamResampler(48000, 16000).process(sine(12000, 48000, 48000));
    expect(rms(out.subarray(100))).toBeLessThan(0.01);
  });

  it('goes up (16 kHz to 48 kHz, 44.1 kHz) keeping the tone', () => {
    for (const rate of [48000, 44100]) {
      const out = new StreamResampler(16000, rate).process(sine(440, 16000, 16000));
      // The last input sample's time is reached by the next block: up to one input sample (3 outputs) later.
      expect(rate - out.length).toBeLessThanOrEqual(4);
      expect(toneAmplitude(out, 440, rate)).toBeGreaterThan(0.48);
    }
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new StreamResampler(0, 16000)).toThrow(RangeError);
  });
});

describe('Pcm16Framer and pcm16ToFloat', () => {
  it('emits 640-byte little-endian frames of 320 samples, clipping beyond full scale', () => {
    const framer = new Pcm16Framer();
    expect(framer.push(new Float32Array(300))).toEqual([]);
    const samples = new Float32Array(340);
    samples[20] = 0.5;
    samples[21] = -1;
    samples[22] = 2;
    const frames = framer.push(samples);
    // 300 + 340 samples: two whole frames; the second starts with the 21st sample of the second push.
    expect(frames.map((f) => f.byteLength)).toEqual([640, 640]);
    const view = new DataView(frames[1]);
    expect(view.getInt16(0, true)).toBe(Math.round(0.5 * 0x7fff));
    expect(view.getInt16(2, true)).toBe(-0x8000);
    expect(view.getInt16(4, true)).toBe(0x7fff);
    const back = pcm16ToFloat(frames[1]);
    expect(back[0]).toBeCloseTo(0.5, 3);
    expect(back[1]).toBe(-1);
  });
});

describe('PlaybackQueue', () => {
  const block = () => new Float32Array(128);
  const ones = (n: number) => new Float32Array(n).fill(1);

  it('waits for the prefill, then plays in order, and waits again after running dry', () => {
    const q = new PlaybackQueue(300);
    q.push(ones(200));
    const out = block();
    q.render(out);
    expect(rms(out)).toBe(0);
    expect(q.playing).toBe(false);
    q.push(ones(200));
    q.render(out);
    expect(out.every((v) => v === 1)).toBe(true);
    expect(q.buffered).toBe(272);
    q.render(out);
    q.render(out);
    q.render(out);
    expect(q.buffered).toBe(0);
    expect(q.playing).toBe(false);
    q.push(ones(100));
    q.render(out);
    expect(rms(out)).toBe(0);
  });

  it('reports a mark once the audio queued before it has been rendered, and starts short audio followed by a mark', () => {
    const q = new PlaybackQueue(1000);
    q.push(ones(200));
    q.mark('a');
    q.push(ones(50));
    q.mark('b');
    const out = block();
    expect(q.render(out)).toEqual([]);
    // The rest of the first audio, mark a, the 50 samples, mark b: all within the second block.
    expect(q.render(out)).toEqual(['a', 'b']);
    expect(out.subarray(0, 122).every((v) => v === 1)).toBe(true);
    expect(out.subarray(122).every((v) => v === 0)).toBe(true);
    expect(q.render(out)).toEqual([]);
  });

  it('reports a mark with nothing before it at the next render', () => {
    const q = new PlaybackQueue(960);
    q.mark('now');
    expect(q.render(block())).toEqual(['now']);
  });

  it('clear drops the queued audio and releases the pending marks', () => {
    const q = new PlaybackQueue(10);
    q.push(ones(5000));
    q.mark('x');
    q.push(ones(5000));
    q.mark('y');
    q.render(block());
    expect(q.clear()).toEqual(['x', 'y']);
    expect(q.buffered).toBe(0);
    const out = block();
    expect(q.render(out)).toEqual([]);
    expect(rms(out)).toBe(0);
  });
});
