import { CallRecorder } from './call-recorder';

const frame = (value: number) => new Int16Array(160).fill(value);

describe('CallRecorder', () => {
  const at = (wav: Buffer, i: number, ch: 0 | 1) => wav.readInt16LE(44 + i * 4 + ch * 2);

  it('interleaves the legs (left caller, right agent), the caller frame after frame as the carrier sent it', () => {
    const recorder = new CallRecorder();
    for (let i = 0; i < 25; i++) recorder.caller(frame(100 + i)); // half a second of the caller's stream
    recorder.agent(frame(-200), false); // the agent's first audio, half a second in
    const { wav, durationSeconds } = recorder.toWav();
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    expect((wav.length - 44) / 4).toBe(4000 + 160);
    expect(durationSeconds).toBeCloseTo(0.52, 5);
    expect(at(wav, 0, 0)).toBe(100);
    expect(at(wav, 160, 0)).toBe(101);
    expect(at(wav, 3999, 0)).toBe(124);
    expect(at(wav, 4000, 0)).toBe(0);
    expect(at(wav, 3999, 1)).toBe(0);
    expect(at(wav, 4000, 1)).toBe(-200);
  });

  it('plays a run of agent frames back to back while the caller stream goes on, and starts the next run where the caller is', () => {
    const recorder = new CallRecorder();
    recorder.agent(frame(1), false);
    recorder.agent(frame(2), true);
    // However late this process got to them, the caller's frames and the utterance's frames follow on.
    for (let i = 0; i < 10; i++) recorder.caller(frame(50));
    recorder.agent(frame(3), true);
    recorder.agent(frame(4), false); // a new utterance after a pause: at the caller's 10th frame's end
    const { wav } = recorder.toWav();
    expect([0, 160, 320].map((i) => at(wav, i, 1))).toEqual([1, 2, 3]);
    expect(at(wav, 480, 1)).toBe(0);
    expect(at(wav, 1600, 1)).toBe(4);
    expect((wav.length - 44) / 4).toBe(1760);
  });
});
