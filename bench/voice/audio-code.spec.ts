import { mulawDecode, mulawEncode, whiteNoise } from '@vap/media';
import { CODE_SAMPLES, markFrame, readCodes } from './audio-code';
import { callerAudio, speechLikePcm } from './speech-like-audio';

/** Frames as the voice service hands them to STT: mu-law decoded and joined. */
function decoded(frames: Buffer[]): Int16Array {
  return mulawDecode(Buffer.concat(frames));
}

describe('audio code', () => {
  const speech = callerAudio(0.4).speechFrames;

  it('reads back the call and piece of marked frames, once each, in the order heard', () => {
    const frames = [
      ...speech.map((f) => markFrame(f, { call: 4095, piece: 3 })),
      speech[0],
      ...speech.map((f) => markFrame(f, { call: 4095, piece: 255 })),
      markFrame(speech[1], { call: 0, piece: 0 }),
    ];
    expect(readCodes(decoded(frames))).toEqual([
      { call: 4095, piece: 3 },
      { call: 4095, piece: 255 },
      { call: 0, piece: 0 },
    ]);
  });

  it('finds codes at any sample offset (a pre-roll or a cut not on a frame boundary)', () => {
    const pcm = decoded(speech.map((f) => markFrame(f, { call: 77, piece: 12 })));
    expect(readCodes(pcm.subarray(37))).toEqual([{ call: 77, piece: 12 }]);
  });

  it('changes only the first samples of a frame, and leaves the original alone', () => {
    const frame = speech[2];
    const copy = Buffer.from(frame);
    const marked = markFrame(frame, { call: 1, piece: 1 });
    expect(frame.equals(copy)).toBe(true);
    expect(marked.subarray(CODE_SAMPLES).equals(frame.subarray(CODE_SAMPLES))).toBe(true);
  });

  it('hears nothing in unmarked speech, noise or silence', () => {
    const noise = mulawDecode(mulawEncode(whiteNoise(8000 * 5, -6, 3)));
    const loudSpeech = mulawDecode(mulawEncode(speechLikePcm(5, 8000, { dbfs: -6, seed: 5 })));
    expect(readCodes(noise)).toEqual([]);
    expect(readCodes(loudSpeech)).toEqual([]);
    expect(readCodes(new Int16Array(1600))).toEqual([]);
  });

  it('ignores a code whose check does not hold', () => {
    const marked = markFrame(speech[0], { call: 5, piece: 9 });
    marked[4] ^= 1;
    expect(readCodes(mulawDecode(marked))).toEqual([]);
  });

  it('refuses numbers it cannot carry', () => {
    expect(() => markFrame(speech[0], { call: 4096, piece: 0 })).toThrow(RangeError);
    expect(() => markFrame(speech[0], { call: 0, piece: 256 })).toThrow(RangeError);
  });
});
