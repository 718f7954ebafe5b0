// The caller's side of a speech-to-speech call: the media plane still decodes, records and watches the caller's
// audio (the recording, barge-in on the line's own voice activity detection, the idle timer), but the words are
// the session's: it hears the whole stream itself and transcribes it. This transcriber stands in the caller input's
// place of one: it takes no audio and knows no words.

import type { SttProvider, SttSession } from '@vap/speech';

export class SessionHearing implements SttProvider {
  /** Never reported: the call's lines name the session's provider as what heard the caller. */
  readonly name = 'offline' as const;

  async open(): Promise<SttSession> {
    return {
      push: () => undefined,
      finish: async () => '',
      close: async () => undefined,
    };
  }
}
