import { FRAME_MS, levelDbfs, mulawDecode, MULAW_FRAME_BYTES, resamplePcm16 } from '@vap/media';
import {
  browserFrameFromMulaw,
  callerAudio,
  callerAudioOf,
  isPcm16SpeechFrame,
  isSpeechFrame,
  pcm16LeBytes,
  peakOf,
  speechLikePcm,
  VOICED_PEAK,
} from './speech-like-audio';

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

  it('turns caller frames into 640-byte browser frames (PCM16 16 kHz) at the same level', () => {
    const audio = callerAudio(0.2);
    for (const frame of audio.speechFrames) {
      const browser = browserFrameFromMulaw(frame);
      expect(browser).toHaveLength(640);
      expect(isPcm16SpeechFrame(browser)).toBe(true);
      const samples = new Int16Array(browser.buffer, browser.byteOffset, 320);
      expect(levelDbfs(samples)).toBeCloseTo(levelDbfs(mulawDecode(frame)), 0);
      // Every even sample is the decoded 8 kHz one.
      expect(samples[2 * 7]).toBe(mulawDecode(frame)[7]);
    }
    expect(isPcm16SpeechFrame(browserFrameFromMulaw(audio.silenceFrame))).toBe(false);
  });

  it('calls silent, empty and odd-length browser messages no speech', () => {
    expect(isPcm16SpeechFrame(Buffer.alloc(640))).toBe(false);
    expect(isPcm16SpeechFrame(Buffer.alloc(0))).toBe(false);
    expect(isPcm16SpeechFrame(Buffer.alloc(1, 0x7f))).toBe(false);
  });

  it('turns given speech into caller frames up to its last voiced one, which it names', () => {
    const pcm = new Int16Array(8000); // a second at 8 kHz: 50 frames
    pcm.fill(3000, 0, 80 * 10); // frames 0-9 loud
    pcm.fill(0, 800, 160 * 20); // frames 5-19... silent from sample 800 (frame 5) on
    pcm.fill(2000, 160 * 30, 160 * 30 + 10); // a short sound in frame 30
    pcm.fill(20, 160 * 40, 160 * 41); // frame 40 below the voiced level
    const audio = callerAudioOf(pcm);
    expect(audio.lastVoicedFrame).toBe(30);
    expect(audio.speechFrames).toHaveLength(31);
    expect(peakOf(mulawDecode(audio.speechFrames[30]))).toBeGreaterThan(VOICED_PEAK);
    expect(mulawDecode(audio.silenceFrame).every((s) => s === 0)).toBe(true);
    expect(() => callerAudioOf(new Int16Array(800))).toThrow(/no sound/);
  });
});
