// What a call of the agent will speak and hear with, in words, from what the API says of this account: the voice
// catalog's availability of each voice (GET /voice-configurations: the account's key, the platform's, the offline
// engine's own voice, or the offline stand-in for a provider nobody has a key for) and the account's provider keys
// (GET /provider-credentials). The voice service resolves a call's speech the same way (docs/voice.md).
import { speechProviderLabel } from '../../components/speech-providers.js';
import type { CatalogVoice } from '../../components/voice-picker.js';
import type { TranscriberDraft } from './model.js';

/** A provider key of the account, as much as these sentences need. */
export interface SpeechKey {
  provider: string;
  used_for: string[];
}

/** One sentence, and the provider whose key would change it (the builder links to Provider keys for it). */
export interface RunsOnLine {
  text: string;
  needsKey?: string;
}

/** The voice_id an agent takes: the UUID of the configuration id (as the voice picker says it). */
const voiceIdOf = (v: CatalogVoice) => v.id.replace(/^vc_/, '');

const hasKey = (keys: SpeechKey[], provider: string) =>
  keys.some((k) => k.provider === provider && k.used_for.includes('speech'));

/** How one voice of the catalog is spoken, in words. */
function voiceWords(voice: CatalogVoice): RunsOnLine {
  const label = speechProviderLabel(voice.provider);
  const name = `${voice.display_name} (${label})`;
  switch (voice.availability) {
    case 'account_key':
      return { text: `${name} on your ${label} key` };
    case 'platform':
      return { text: `${name} on the platform’s ${label} key, within the minute price` };
    case 'offline':
      // Voices of an engine on the deployment itself: local speech's (eSpeak NG) or the offline engine's.
      return voice.provider === 'local'
        ? { text: `${voice.display_name}, a local speech voice (eSpeak NG), which needs no key` }
        : { text: `${voice.display_name}, the offline engine’s own voice, which needs no key` };
    default:
      return {
        text:
          `${label} needs a key: until you add one in Provider keys, calls speak ${voice.display_name}’s lines ` +
          'with the deployment’s stand-in voice (not the provider’s own)',
        needsKey: voice.provider,
      };
  }
}

/** What calls will speak with: the voice, then each fallback voice in order. */
export function voiceRunsOn(voiceId: string, fallbackIds: string[], voices: CatalogVoice[]): RunsOnLine[] {
  const find = (id: string) => voices.find((v) => voiceIdOf(v) === id);
  const describe = (id: string): RunsOnLine => {
    const voice = find(id);
    return voice ? voiceWords(voice) : { text: 'a voice this account is not offered: choose another' };
  };
  if (!voiceId) return [{ text: 'No voice chosen yet: choose one above.' }];
  const main = describe(voiceId);
  const lines: RunsOnLine[] = [
    main.needsKey ? { ...main, text: `${main.text}.` } : { text: `Calls will speak with ${main.text}.` },
  ];
  fallbackIds.filter(Boolean).forEach((id, i) => {
    const f = describe(id);
    lines.push({
      ...f,
      text: `${i === 0 ? 'If its provider fails' : 'If that fails too'}: ${f.text}.`,
    });
  });
  return lines;
}

/** How one transcriber is heard with, in words. */
function transcriberWords(t: TranscriberDraft, keys: SpeechKey[], voices: CatalogVoice[]): RunsOnLine {
  if (t.provider === 'offline')
    return {
      text:
        'the offline development recogniser, which understands only the platform’s own synthetic speech, ' +
        'not a person',
    };
  if (t.provider === 'local')
    return {
      text: 'Local speech (eSpeak NG, PocketSphinx), which runs on this deployment and needs no key',
    };
  const label = speechProviderLabel(t.provider);
  const model = t.model.trim() ? `${label} ${t.model.trim()}` : `${label} (its default model)`;
  if (hasKey(keys, t.provider)) return { text: `${model} on your key` };
  // The platform's key for a provider serves its voices and its transcribers alike, for the same accounts.
  if (voices.some((v) => v.provider === t.provider && v.availability === 'platform'))
    return { text: `${model} on the platform’s ${label} key, within the minute price` };
  return {
    text:
      `${label} needs a key: until you add one in Provider keys, calls hear with the deployment’s default ` +
      'transcriber instead',
    needsKey: t.provider,
  };
}

/** What calls will hear with: the transcriber, then the fallback transcriber. */
export function transcriberRunsOn(
  transcriber: TranscriberDraft | null,
  fallback: TranscriberDraft | null,
  keys: SpeechKey[],
  voices: CatalogVoice[],
): RunsOnLine[] {
  if (!transcriber)
    return [
      {
        text:
          'Calls will hear with the deployment’s default transcriber (a session started with Talk says which). ' +
          'Choose a transcriber to decide yourself.',
      },
    ];
  const main = transcriberWords(transcriber, keys, voices);
  const lines: RunsOnLine[] = [
    main.needsKey ? { ...main, text: `${main.text}.` } : { text: `Calls will hear with ${main.text}.` },
  ];
  if (fallback) {
    const f = transcriberWords(fallback, keys, voices);
    lines.push({ ...f, text: `If it fails: ${f.text}.` });
  }
  return lines;
}
