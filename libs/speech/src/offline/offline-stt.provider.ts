import { OfflineTranscriber } from '@vap/media';
import type { SttOptions, SttProvider, SttSession } from '../stt-provider';

/**
 * Offline STT: reads the text that offline TTS carries under its speech (the sandbox phone speaks with it), so
 * a whole call runs with no network. Audio without that signal transcribes to ''.
 */
export class OfflineSttProvider implements SttProvider {
  readonly name = 'offline' as const;

  async open(_options: SttOptions): Promise<SttSession> {
    const transcriber = new OfflineTranscriber();
    const session: SttSession = {
      // Each sentence's text is decoded as its signal ends: the words so far, as a streaming provider's
      // interim results would give them.
      push: (frame) => {
        if (transcriber.push(frame)) session.onPartial?.(transcriber.text);
      },
      finish: async (signal) => {
        signal?.throwIfAborted();
        return transcriber.finish();
      },
      close: async () => transcriber.reset(),
    };
    return session;
  }
}
