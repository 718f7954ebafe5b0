import { runInNewContext } from 'node:vm';
import { workletSource } from './browser/worklet';

interface FakePort {
  posted: unknown[];
  postMessage(message: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
}

interface Processor {
  port: FakePort;
  process(inputs: Float32Array[][], outputs?: Float32Array[][]): boolean;
}

/** Runs the worklet module as an AudioWorkletGlobalScope would: its own realm, these globals only. */
function loadWorklet(sampleRate: number): Map<string, new (options: unknown) => Processor> {
  const processors = new Map<string, new (options: unknown) => Processor>();
  class AudioWorkletProcessor {
    readonly port: FakePort = {
      posted: [],
      postMessage(message: unknown) {
        this.posted.push(message);
      },
      onmessage: null,
    };
  }
  runInNewContext(workletSource(), {
    sampleRate,
    AudioWorkletProcessor,
    registerProcessor: (name: string, ctor: new (options: unknown) => Processor) =>
      processors.set(name, ctor),
  });
  return processors;
}

describe('the worklet module (the DSP classes inlined, no imports)', () => {
  it('registers a capture processor that posts 640-byte frames, 50 per second of 48 kHz input', () => {
    const Capture = loadWorklet(48000).get('vap-voice-capture')!;
    const capture = new Capture({ processorOptions: { rate: 16000, frameSamples: 320 } });
    const block = new Float32Array(128).fill(0.25);
    for (let i = 0; i < 375; i++) capture.process([[block]]); // 1 s at 48 kHz
    const frames = capture.port.posted as ArrayBuffer[];
    expect(frames.length).toBeGreaterThanOrEqual(49);
    expect(frames.length).toBeLessThanOrEqual(50);
    expect(frames.every((f) => f.byteLength === 640)).toBe(true);
    expect(new DataView(frames[10]).getInt16(300, true)).toBe(Math.round(0.25 * 0x7fff));
  });

  it('registers a playback processor: prefill, marks reported as played, clear releases marks', () => {
    const Playback = loadWorklet(48000).get('vap-voice-playback')!;
    const playback = new Playback({ processorOptions: { rate: 16000, prefillMs: 60 } });
    const send = (data: unknown) => playback.port.onmessage!({ data });
    const out = [new Float32Array(128)];
    const render = () => playback.process([], [out]);

    send({ type: 'audio', samples: new Float32Array(480).fill(0.5) }); // 30 ms: under the prefill
    render();
    expect(out[0].every((v) => v === 0)).toBe(true);
    send({ type: 'audio', samples: new Float32Array(480).fill(0.5) }); // 60 ms queued: plays
    send({ type: 'mark', name: 'm1' });
    render();
    expect(out[0][64]).toBeCloseTo(0.5, 3);
    let blocks = 1;
    while (playback.port.posted.length === 0 && blocks < 100) {
      render();
      blocks++;
    }
    // 60 ms at 48 kHz = 2880 samples = 22.5 blocks of 128.
    expect(blocks).toBe(23);
    expect(playback.port.posted).toEqual([{ type: 'played', names: ['m1'] }]);

    send({ type: 'audio', samples: new Float32Array(16000).fill(0.5) });
    send({ type: 'mark', name: 'm2' });
    render();
    send({ type: 'clear' });
    expect(playback.port.posted[1]).toEqual({ type: 'played', names: ['m2'] });
    render();
    expect(out[0].every((v) => v === 0)).toBe(true);
  });
});
