// The speech providers an account may keep a key for, by the names partners know them (the agents service words its
// messages with the same names; the console cannot import the platform's libs, so this is the console's one list),
// and the keyless engines on the deployment itself.
export const SPEECH_PROVIDERS: [string, string][] = [
  ['openai', 'OpenAI'],
  ['elevenlabs', 'ElevenLabs'],
  ['cartesia', 'Cartesia'],
  ['deepgram', 'Deepgram'],
  ['azure', 'Azure Speech'],
  ['sarvam', 'Sarvam'],
  ['assemblyai', 'AssemblyAI'],
];

const KEYLESS_ENGINES: [string, string][] = [
  ['offline', 'the offline engine'],
  ['local', 'Local speech'],
];

const SPEECH_LABELS = new Map([...SPEECH_PROVIDERS, ...KEYLESS_ENGINES]);

/** A speech provider's or engine's name in words; an unknown one as it is spelled. */
export const speechProviderLabel = (provider: string) => SPEECH_LABELS.get(provider) ?? provider;
