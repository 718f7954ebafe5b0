import { OfflineTranscriber } from '@vap/media';
import type { SttOptions, SttProvider, SttSession } from './stt-provider';

/**
 * Offline STT: reads the text that offline TTS carries under its speech (the sandbox phone speaks with it), so
 * a whole call runs with no network. Audio without that signal transcribes to ''.
 */
export class OfflineSttProvider implements SttProvider {
  readonly name = 'offline' as const;

  async open(_options: SttOptions): Promise<SttSession> {
    const transcriber = new OfflineTranscriber();
    return {
      push: (frame) => transcriber.push(frame),
      finish: async (signal) => {
        signal?.throwIfAborted();
        return transcriber.finish();
      },
      close: async () => transcriber.reset(),
    };
  }
}
