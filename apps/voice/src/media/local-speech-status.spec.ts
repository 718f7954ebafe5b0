import type { SpeechSettings } from '@vap/speech';
import { LocalSpeechStatus } from './local-speech-status';

const settings = (over: Partial<SpeechSettings>): SpeechSettings => ({
  STT_PROVIDER: 'local',
  TTS_PROVIDER: 'local,offline',
  PROVIDER_TIMEOUT_MS: 5000,
  ...over,
});

describe('LocalSpeechStatus', () => {
  it('says once, with the apt command, that local speech is missing, and stays ready on the offline engine', async () => {
    const status = new LocalSpeechStatus();
    const warnings: string[] = [];
    await status.check(settings({ LOCAL_SPEECH_ESPEAK: '/nonexistent/espeak-ng' }), (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'sudo apt-get install -y espeak-ng pocketsphinx pocketsphinx-en-us python3-pocketsphinx',
    );
    expect(warnings[0]).toContain('calls run on the offline signal engine in its place');
    expect(status.notReadyReason()).toBeNull();
    expect(status.detail()).toEqual({ engine: 'offline (standing in)', message: status.problem });
  });

  it('reports local speech running where its packages are, and not used where no setting names it', async () => {
    const running = new LocalSpeechStatus();
    const warnings: string[] = [];
    await running.check(settings({}), (m) => warnings.push(m));
    expect([warnings, running.problem, running.detail()]).toEqual([
      [],
      undefined,
      { engine: 'espeak-ng, pocketsphinx' },
    ]);
    const unused = new LocalSpeechStatus();
    await unused.check(
      settings({ STT_PROVIDER: 'offline', TTS_PROVIDER: 'offline', LOCAL_SPEECH_ESPEAK: '/nonexistent' }),
      (m) => warnings.push(m),
    );
    expect([warnings, unused.detail()]).toEqual([[], { engine: 'not used' }]);
  });
});
