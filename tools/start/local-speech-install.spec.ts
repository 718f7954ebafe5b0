import { installCommands, wantsLocalSpeech } from './local-speech-install';

describe('npm start and local speech', () => {
  it('checks for it when voice would use it: its development default, or a list naming local', () => {
    expect(wantsLocalSpeech({})).toBe(true);
    expect(wantsLocalSpeech({ STT_PROVIDER: 'offline', TTS_PROVIDER: 'local,offline' })).toBe(true);
    expect(wantsLocalSpeech({ STT_PROVIDER: 'offline', TTS_PROVIDER: 'offline' })).toBe(false);
    expect(wantsLocalSpeech({ STT_PROVIDER: 'deepgram', TTS_PROVIDER: 'openai,offline' })).toBe(false);
  });

  it('installs the Debian packages as root or through sudo -n, and runs nothing otherwise', () => {
    const packages = ['espeak-ng', 'pocketsphinx', 'pocketsphinx-en-us', 'python3-pocketsphinx'];
    expect(installCommands('root')).toEqual([
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', '--no-install-recommends', ...packages],
    ]);
    expect(installCommands('sudo')).toEqual([
      ['sudo', '-n', 'apt-get', 'update'],
      ['sudo', '-n', 'apt-get', 'install', '-y', '--no-install-recommends', ...packages],
    ]);
    expect(installCommands('none')).toEqual([]);
  });
});
