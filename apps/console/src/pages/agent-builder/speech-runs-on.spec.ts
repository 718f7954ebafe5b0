import type { CatalogVoice } from '../../components/voice-picker';
import type { TranscriberDraft } from './model';
import { transcriberRunsOn, voiceRunsOn } from './speech-runs-on';

const voice = (id: string, display_name: string, provider: string, availability: string): CatalogVoice => ({
  id: `vc_${id}`,
  display_name,
  description: '',
  provider,
  model_name: 'm',
  tier: 'standard',
  language: 'en-IN',
  gender: 'female',
  availability,
});
const voices = [
  voice('1', 'Neerja', 'offline', 'offline'),
  voice('2', 'Rachel', 'elevenlabs', 'development_stand_in'),
  voice('3', 'Asteria', 'deepgram', 'platform'),
  voice('4', 'Alloy', 'openai', 'account_key'),
];
const stt = (provider: string, model = ''): TranscriberDraft => ({
  provider,
  model,
  languages: [],
  keyterms: [],
  options: {},
});

describe('what calls will speak with', () => {
  it('says the voice, on whose key, and each fallback', () => {
    expect(voiceRunsOn('4', ['3', '1'], voices).map((l) => l.text)).toEqual([
      'Calls will speak with Alloy (OpenAI) on your OpenAI key.',
      'If its provider fails: Asteria (Deepgram) on the platform’s Deepgram key, within the minute price.',
      'If that fails too: Neerja, the offline engine’s own voice, which needs no key.',
    ]);
  });

  it('says a local speech voice needs no key', () => {
    expect(voiceRunsOn('9', [], [voice('9', 'Arjun', 'local', 'offline')])).toEqual([
      { text: 'Calls will speak with Arjun, a local speech voice (eSpeak NG), which needs no key.' },
    ]);
  });

  it('says a voice nobody has a key for is spoken by the offline stand-in, and which key would change it', () => {
    expect(voiceRunsOn('2', [], voices)).toEqual([
      {
        text:
          'ElevenLabs needs a key: until you add one in Provider keys, calls speak Rachel’s lines with the ' +
          'deployment’s stand-in voice (not the provider’s own).',
        needsKey: 'elevenlabs',
      },
    ]);
  });
});

describe('what calls will hear with', () => {
  it('says a transcriber on the account’s key, with its model', () => {
    const keys = [{ provider: 'deepgram', used_for: ['speech'] }];
    expect(transcriberRunsOn(stt('deepgram', 'nova-3'), null, keys, voices)).toEqual([
      { text: 'Calls will hear with Deepgram nova-3 on your key.' },
    ]);
  });

  it('says a transcriber without a key needs one, and what calls hear with until then', () => {
    // A models-only key is no speech key.
    const keys = [{ provider: 'assemblyai', used_for: ['models'] }];
    expect(transcriberRunsOn(stt('assemblyai'), stt('offline'), keys, voices)).toEqual([
      {
        text:
          'AssemblyAI needs a key: until you add one in Provider keys, calls hear with the deployment’s default ' +
          'transcriber instead.',
        needsKey: 'assemblyai',
      },
      {
        text:
          'If it fails: the offline development recogniser, which understands only the platform’s own ' +
          'synthetic speech, not a person.',
      },
    ]);
  });

  it('counts the platform’s key for a provider whose voices the platform speaks for this account', () => {
    expect(transcriberRunsOn(stt('deepgram'), null, [], voices)[0].text).toBe(
      'Calls will hear with Deepgram (its default model) on the platform’s Deepgram key, within the minute price.',
    );
    // The deployment's own engine needs no key.
    expect(transcriberRunsOn(stt('local'), null, [], voices)[0].text).toBe(
      'Calls will hear with Local speech (eSpeak NG, PocketSphinx), which runs on this deployment and needs no key.',
    );
    expect(transcriberRunsOn(null, null, [], voices)[0].text).toMatch(
      /^Calls will hear with the deployment’s default transcriber/,
    );
  });
});
