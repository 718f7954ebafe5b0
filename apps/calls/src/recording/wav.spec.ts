import { buildWav, wavDurationSeconds } from './wav';

describe('buildWav', () => {
  it('writes a PCM mono 16-bit WAV whose length is the sum of the segments', () => {
    const wav = buildWav([
      { seconds: 1.5, hz: 440 },
      { seconds: 2, hz: 0 },
      { seconds: 0.5, hz: 220 },
    ]);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.length).toBe(44 + 4 * 8000 * 2);
    expect(wavDurationSeconds(wav)).toBe(4);
    // Silence is zeros, tone is not.
    expect(wav.readInt16LE(44 + 2 * 8000 * 2)).toBe(0);
    expect(wav.subarray(44, 44 + 200).some((b) => b !== 0)).toBe(true);
  });
});
