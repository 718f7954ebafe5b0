import { CallRecorder } from './call-recorder';

const frame = (value: number) => new Int16Array(160).fill(value);

describe('CallRecorder', () => {
  it('places each leg on the media clock and interleaves them (left caller, right agent)', () => {
    const recorder = new CallRecorder();
    recorder.caller(frame(100), 0);
    recorder.caller(frame(101), 25); // jitter: written straight after the previous frame
    recorder.agent(frame(-200), 500); // the agent's first audio, half a second in
    const { wav, durationSeconds } = recorder.toWav();
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    const frames = (wav.length - 44) / 4;
    expect(frames).toBe(4000 + 160);
    expect(durationSeconds).toBeCloseTo(0.52, 5);
    const at = (i: number, ch: 0 | 1) => wav.readInt16LE(44 + i * 4 + ch * 2);
    expect(at(0, 0)).toBe(100);
    expect(at(160, 0)).toBe(101);
    expect(at(320, 0)).toBe(0);
    expect(at(3999, 1)).toBe(0);
    expect(at(4000, 1)).toBe(-200);
  });
});
