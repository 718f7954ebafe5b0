// A replica whose speech is local starts its PocketSphinx recogniser while it boots, before it takes a stream: the
// first utterance of the first call is decoded by a recogniser that has its model loaded, within its deadline,
// instead of waiting for Python and the model first. A replica whose speech is not local starts none.
import { readdirSync, readFileSync } from 'node:fs';
import { startVoice } from '../testing/voice-integration';

/** The PocketSphinx recognisers running as children of this process (the voice app runs in it). */
function recognisers(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent's pid is the fourth field, after the command name in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('from pocketsphinx import Decoder'))
        pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

describe('local speech at boot', () => {
  it('starts one recogniser before the first call when speech is local, and ends it with the replica', async () => {
    expect(recognisers()).toEqual([]);
    const voice = await startVoice({ env: { STT_PROVIDER: 'local', TTS_PROVIDER: 'local' } });
    try {
      expect(recognisers()).toHaveLength(1);
    } finally {
      await voice.stop();
    }
    expect(recognisers()).toEqual([]);
  }, 60_000);

  it('starts none when the replica does not recognise locally', async () => {
    const voice = await startVoice({ env: { STT_PROVIDER: 'offline', TTS_PROVIDER: 'local' } });
    try {
      expect(recognisers()).toEqual([]);
    } finally {
      await voice.stop();
    }
  }, 60_000);
});
