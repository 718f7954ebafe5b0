import { MULAW_SILENCE, mulawDecode, mulawDecodeSample, mulawEncode, mulawEncodeSample } from './mulaw';

describe('G.711 mu-law', () => {
  it('matches the ITU reference points', () => {
    expect(mulawEncodeSample(0)).toBe(0xff);
    expect(MULAW_SILENCE).toBe(0xff);
    expect(mulawDecodeSample(0xff)).toBe(0);
    expect(mulawDecodeSample(0x7f)).toBe(0);
    expect(mulawDecodeSample(0x00)).toBe(-32124);
    expect(mulawDecodeSample(0x80)).toBe(32124);
    expect(mulawEncodeSample(32767)).toBe(0x80);
    expect(mulawEncodeSample(-32768)).toBe(0x00);
    expect(mulawEncodeSample(-1)).toBe(0x7f);
    // Start of the second segment (exponent 1, mantissa 0): (132 << 1) - 132.
    expect(mulawDecodeSample(0xef)).toBe(132);
    expect(mulawDecodeSample(0x6f)).toBe(-132);
  });

  it('decodes every byte and re-encodes it to itself (except the duplicate zero)', () => {
    for (let byte = 0; byte < 256; byte++) {
      const sample = mulawDecodeSample(byte);
      const again = mulawEncodeSample(sample);
      if (byte === 0x7f) expect(again).toBe(0xff);
      else expect(again).toBe(byte);
    }
  });

  it('keeps the round trip error within the quantisation step of each segment', () => {
    for (let sample = -32768; sample <= 32767; sample += 7) {
      const decoded = mulawDecodeSample(mulawEncodeSample(sample));
      const magnitude = Math.min(Math.abs(sample), 32635);
      // The step doubles per segment (8 in the first, 1024 in the last); decoding lands mid-step.
      const step = 2 ** (Math.floor(Math.log2(magnitude + 132)) - 4);
      expect(Math.abs(decoded - Math.max(-32635, Math.min(32635, sample)))).toBeLessThanOrEqual(step / 2);
      expect(Math.sign(decoded) === Math.sign(sample) || decoded === 0 || Math.abs(sample) < 8).toBe(true);
    }
  });

  it('is monotonic', () => {
    let previous = -Infinity;
    for (let sample = -32768; sample <= 32767; sample++) {
      const decoded = mulawDecodeSample(mulawEncodeSample(sample));
      expect(decoded >= previous).toBe(true);
      previous = decoded;
    }
  });

  it('converts whole buffers, into a given output when passed', () => {
    const pcm = Int16Array.from([0, 1000, -1000, 32767, -32768]);
    const encoded = mulawEncode(pcm);
    expect(Buffer.isBuffer(encoded)).toBe(true);
    expect([...encoded]).toEqual([...pcm].map(mulawEncodeSample));
    const decoded = mulawDecode(encoded);
    expect([...decoded]).toEqual([...encoded].map(mulawDecodeSample));
    const out = new Int16Array(5);
    expect(mulawDecode(encoded, out)).toBe(out);
    expect(() => mulawEncode(pcm, new Uint8Array(2))).toThrow(RangeError);
    expect(() => mulawDecode(encoded, new Int16Array(2))).toThrow(RangeError);
  });
});
