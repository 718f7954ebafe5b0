import { PlaybackQueue, Pcm16Framer, StreamResampler } from '../dsp';

// The AudioWorkletGlobalScope's names, which the DOM library does not declare.
declare const sampleRate: number;
declare function registerProcessor(name: string, ctor: unknown): void;
declare class AudioWorkletProcessor {
  readonly port: {
    postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
    onmessage: ((event: { data: unknown }) => void) | null;
  };
  constructor(options?: unknown);
}

export const CAPTURE_PROCESSOR = 'vap-voice-capture';
export const PLAYBACK_PROCESSOR = 'vap-voice-playback';

/**
 * Runs inside the AudioWorkletGlobalScope only (the build inlines its source): the capture processor
 * resamples the microphone to the wire rate and posts 20 ms PCM16 frames; the playback processor keeps the
 * agent's audio in a PlaybackQueue and reports the marks it reaches and the marks a clear releases. The DSP
 * classes come in as arguments, so that the function's source names nothing of this module's scope.
 */
function defineProcessors(
  Resampler: typeof StreamResampler,
  Framer: typeof Pcm16Framer,
  Queue: typeof PlaybackQueue,
): void {
  class CaptureProcessor extends AudioWorkletProcessor {
    private readonly resampler: StreamResampler;
    private readonly framer: Pcm16Framer;

    constructor(options: { processorOptions: { rate: number; frameSamples: number } }) {
      super(options);
      this.resampler = new Resampler(sampleRate, options.processorOptions.rate);
      this.framer = new Framer(options.processorOptions.frameSamples);
    }

    process(inputs: Float32Array[][]): boolean {
      const channels = inputs[0];
      if (!channels || channels.length === 0) return true;
      let mono = channels[0];
      if (channels.length > 1) {
        mono = new Float32Array(channels[0].length);
        for (const ch of channels) for (let i = 0; i < mono.length; i++) mono[i] += ch[i] / channels.length;
      }
      for (const frame of this.framer.push(this.resampler.process(mono)))
        this.port.postMessage(frame, [frame]);
      return true;
    }
  }

  class PlaybackProcessor extends AudioWorkletProcessor {
    private readonly queue: PlaybackQueue;
    private readonly resampler: StreamResampler;

    constructor(options: { processorOptions: { rate: number; prefillMs: number } }) {
      super(options);
      this.queue = new Queue(Math.round((sampleRate * options.processorOptions.prefillMs) / 1000));
      this.resampler = new Resampler(options.processorOptions.rate, sampleRate);
      this.port.onmessage = (event: { data: unknown }) => {
        const m = event.data as { type: string; samples?: Float32Array; name?: string };
        if (m.type === 'audio' && m.samples) this.queue.push(this.resampler.process(m.samples));
        else if (m.type === 'mark' && m.name !== undefined) this.queue.mark(m.name);
        else if (m.type === 'clear') {
          const names = this.queue.clear();
          if (names.length) this.port.postMessage({ type: 'played', names });
        }
      };
    }

    process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
      const channels = outputs[0];
      if (!channels || channels.length === 0) return true;
      const names = this.queue.render(channels[0]);
      for (let c = 1; c < channels.length; c++) channels[c].set(channels[0]);
      if (names.length) this.port.postMessage({ type: 'played', names });
      return true;
    }
  }

  registerProcessor('vap-voice-capture', CaptureProcessor);
  registerProcessor('vap-voice-playback', PlaybackProcessor);
}

/** The worklet module's source: the DSP classes, then the processors' definitions. */
export function workletSource(): string {
  return [
    StreamResampler.toString(),
    Pcm16Framer.toString(),
    PlaybackQueue.toString(),
    `(${defineProcessors.toString()})(StreamResampler, Pcm16Framer, PlaybackQueue);`,
  ].join('\n');
}
