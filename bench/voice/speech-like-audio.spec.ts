import { FRAME_MS, levelDbfs, mulawDecode, MULAW_FRAME_BYTES, resamplePcm16 } from '@vap/media';
import { callerAudio, isSpeechFrame, pcm16LeBytes, speechLikePcm } from './speech-like-audio';

describe('speech-like audio', () => {
  it('has the requested length and RMS level, the same for the same seed', () => {
    const samples = speechLikePcm(0.5, 24_000, { dbfs: -18, seed: 4 });
    expect(samples).toHaveLength(12_000);
    expect(levelDbfs(samples)).toBeCloseTo(-18, 0);
    expect(speechLikePcm(0.5, 24_000, { dbfs: -18, seed: 4 })).toEqual(samples);
  });

  it('stays above the speech threshold in every 20 ms frame after resampling to the telephone band', () => {
    const telephone = resamplePcm16(speechLikePcm(2, 24_000), 24_000, 8000);
    const frameSamples = (8000 * FRAME_MS) / 1000;
    for (let i = 0; i + frameSamples <= telephone.length; i += frameSamples) {
      expect(levelDbfs(telephone.subarray(i, i + frameSamples))).toBeGreaterThan(-30);
    }
  });

  it('cuts caller audio into 160-byte mu-law frames the detector calls speech, beside a silent frame', () => {
    const audio = callerAudio(1);
    expect(audio.speechFrames).toHaveLength(50);
    for (const frame of audio.speechFrames) {
      expect(frame).toHaveLength(MULAW_FRAME_BYTES);
      expect(isSpeechFrame(frame)).toBe(true);
      // Loud enough for the voice service's detector (-40 dBFS threshold) with a wide margin.
      expect(levelDbfs(mulawDecode(frame))).toBeGreaterThan(-25);
    }
    expect(audio.silenceFrame).toHaveLength(MULAW_FRAME_BYTES);
    expect(isSpeechFrame(audio.silenceFrame)).toBe(false);
  });

  it('writes PCM16 little-endian', () => {
    expect([...pcm16LeBytes(Int16Array.from([1, -2, 0x1234]))]).toEqual([1, 0, 0xfe, 0xff, 0x34, 0x12]);
  });
});
