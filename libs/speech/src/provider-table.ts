import { SPEECH_PROVIDERS } from '@vap/messages';
import { SPEECH_PLUGINS } from './registry';

const yes = (value: boolean) => (value ? 'yes' : 'no');

/**
 * The provider table of docs/voice.md, made from the registry so the documentation says what the adapters do
 * (a spec compares the two).
 */
export function speechProviderTable(): string {
  const rows = [
    '| Provider | Setting name | Text to speech | Speech to text | Languages (spoken_languages) | Key terms | Pronunciations | Code-switching | API base (`SPEECH_<P>_BASE_URL` default) |',
    '|---|---|---|---|---|---|---|---|---|',
    "| Local speech (eSpeak NG, PocketSphinx) | `local` | streamed, eSpeak NG on the replica | per utterance, PocketSphinx US English on the replica | speaks all (eSpeak NG's voices), hears en | no | aliases | no | none (no key; Debian packages) |",
    "| Offline (signal engine, for tests) | `offline` | yes, flite with the text in-band | yes, reads only the platform's own synthetic speech | all (one voice pair) | no | no | no | none (no key) |",
  ];
  for (const name of SPEECH_PROVIDERS) {
    const plugin = SPEECH_PLUGINS[name];
    const tts = plugin.tts;
    const stt = plugin.stt;
    const languages = [...new Set([...(tts?.languages ?? []), ...(stt?.languages ?? [])])];
    rows.push(
      `| ${plugin.label} | \`${name}\` | ` +
        `${tts ? `${tts.streaming ? 'streamed' : 'whole'}, default model \`${tts.defaultModel}\`` : 'no'} | ` +
        `${stt ? `${stt.streaming ? 'live socket' : 'per utterance'}, default model \`${stt.defaultModel}\`` : 'no'} | ` +
        `${languages.join(', ')} | ${stt ? yes(stt.keyterms) : '-'} | ${tts ? (tts.pronunciations === 'ssml' ? 'SSML phoneme/sub' : 'aliases') : '-'} | ` +
        `${stt ? yes(stt.codeSwitching) : '-'} | \`${plugin.defaultBaseUrl}\`${plugin.needsRegion ? ' (key has a region)' : ''} |`,
    );
  }
  return rows.join('\n');
}
