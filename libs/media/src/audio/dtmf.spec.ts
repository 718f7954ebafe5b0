import { detectDtmf, DtmfDetector, dtmfFrequencies, dtmfKeyOf, dtmfTones, DTMF_TONE_KEYS } from './dtmf';
import { AmbienceLoop, synthesizeOfficeAmbience } from './ambience';
import { mulawDecode, mulawEncode } from './mulaw';
import { sineWave, whiteNoise } from './signals';

describe('dtmf tones', () => {
  it('uses the Q.23 frequency pairs', () => {
    expect(dtmfFrequencies('1')).toEqual({ low: 697, high: 1209 });
    expect(dtmfFrequencies('0')).toEqual({ low: 941, high: 1336 });
    expect(dtmfFrequencies('#')).toEqual({ low: 941, high: 1477 });
    expect(dtmfFrequencies('D')).toEqual({ low: 941, high: 1633 });
    expect(() => dtmfFrequencies('x')).toThrow(RangeError);
  });

  it('renders 100 ms tones and 60 ms gaps in whole 20 ms frames, w as a half-second pause', () => {
    expect(dtmfTones('5').length).toBe(1280);
    expect(dtmfTones('12').length).toBe(2560);
    expect(dtmfTones('1w2').length).toBe(6560);
    expect(() => dtmfTones('')).toThrow(RangeError);
    expect(() => dtmfTones('1x')).toThrow(RangeError);
    expect(() => dtmfTones('1'.repeat(65))).toThrow(RangeError);
  });

  it('is heard back key for key by the detector, every key', () => {
    expect(detectDtmf(dtmfTones(DTMF_TONE_KEYS))).toBe(DTMF_TONE_KEYS);
    expect(detectDtmf(dtmfTones('112w2'))).toBe('1122');
  });

  it('hears keys across any chunking', () => {
    const audio = dtmfTones('4711#');
    let keys = '';
    const detector = new DtmfDetector((key) => (keys += key));
    for (let at = 0; at < audio.length; at += 37) detector.push(audio.subarray(at, at + 37));
    expect(keys).toBe('4711#');
  });

  it('hears keys played over the office ambience the agent may have under its audio, at full volume', () => {
    const tones = mulawDecode(dtmfTones('0123456789*#'));
    new AmbienceLoop(synthesizeOfficeAmbience({ seconds: 2 }), 1).mixUnder(tones);
    expect(detectDtmf(mulawEncode(tones))).toBe('0123456789*#');
    expect(detectDtmf(mulawEncode(synthesizeOfficeAmbience({ seconds: 5 })))).toBe('');
  });

  it('hears nothing in silence, noise or a single tone', () => {
    expect(detectDtmf(Buffer.alloc(8000, 0xff))).toBe('');
    expect(detectDtmf(mulawEncode(whiteNoise(8000, -12, 7)))).toBe('');
    expect(detectDtmf(mulawEncode(sineWave(697, 8000, 8000, 12000)))).toBe('');
  });

  it('reads keypad keys and nothing else', () => {
    expect(dtmfKeyOf('5')).toBe('5');
    expect(dtmfKeyOf('a')).toBe('A');
    expect(dtmfKeyOf('#')).toBe('#');
    expect(dtmfKeyOf('55')).toBeNull();
    expect(dtmfKeyOf('x')).toBeNull();
    expect(dtmfKeyOf(5)).toBeNull();
  });
});
