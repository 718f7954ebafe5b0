// Speech providers a partner chooses, end to end through the gateway: the partner stores its own key for each
// cloud provider (checked live against the provider's fake), gives an agent that provider's catalog voice and a
// transcriber, and a carrier call runs on them: the fake providers receive the documented requests with the
// partner's key, the caller hears the fake provider's audio, the transcript names the providers that served each
// turn, and no minute is billed as platform-paid. A wrong key is refused at save, a provider that fails mid-call
// hands over to the agent's fallback voice, and a caller who switches language is answered in it.
import { randomBytes } from 'node:crypto';
import {
  AssemblyAiFake,
  AzureTtsFake,
  CartesiaFake,
  DeepgramSpeakFake,
  ElevenLabsFake,
  SarvamFake,
} from '@vap/speech/testing';
import { botLines, userLines, VoiceWorld } from './voice-fixtures';
import { voiceScript } from './voice-script';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const SAID = 'I would like to know my order status.';
const ECHO = `You said ${SAID.replace(/\.$/, '')}.`;

/** The partner's own keys, one per provider (each fake accepts only its own). */
const KEYS = {
  elevenlabs: `el-partner-${randomBytes(6).toString('hex')}`,
  cartesia: `sk_car_partner_${randomBytes(6).toString('hex')}`,
  deepgram: `dg-partner-${randomBytes(6).toString('hex')}`,
  azure: `azure-partner-${randomBytes(6).toString('hex')}`,
  sarvam: `sarvam-partner-${randomBytes(6).toString('hex')}`,
  assemblyai: `aai-partner-${randomBytes(6).toString('hex')}`,
} as const;
type Provider = keyof typeof KEYS;

interface Fakes {
  elevenlabs: ElevenLabsFake;
  cartesia: CartesiaFake;
  deepgram: DeepgramSpeakFake;
  azure: AzureTtsFake;
  sarvam: SarvamFake;
  assemblyai: AssemblyAiFake;
}

describe('speech providers per account and per agent, through the gateway', () => {
  let world: VoiceWorld;
  let fakes: Fakes;
  let catalog: Any[];
  let dictionaryId: string;

  beforeAll(async () => {
    fakes = {
      elevenlabs: await ElevenLabsFake.start({ apiKey: KEYS.elevenlabs }),
      cartesia: await CartesiaFake.start({ apiKey: KEYS.cartesia }),
      deepgram: await DeepgramSpeakFake.start({ apiKey: KEYS.deepgram }),
      azure: await AzureTtsFake.start({ apiKey: KEYS.azure }),
      sarvam: await SarvamFake.start({ apiKey: KEYS.sarvam }),
      assemblyai: await AssemblyAiFake.start({ apiKey: KEYS.assemblyai }),
    };
    world = await VoiceWorld.start({
      name: 'speech_providers',
      providers: { llm: true },
      // ElevenLabs and Cartesia voices are premium voices of the catalog.
      voiceTier: 'premium',
      env: {
        // Where the platform reaches each provider (the partner gives keys, never URLs).
        SPEECH_ELEVENLABS_BASE_URL: fakes.elevenlabs.baseUrl,
        SPEECH_CARTESIA_BASE_URL: fakes.cartesia.baseUrl,
        SPEECH_DEEPGRAM_BASE_URL: fakes.deepgram.baseUrl,
        SPEECH_AZURE_BASE_URL: fakes.azure.baseUrl,
        SPEECH_SARVAM_BASE_URL: fakes.sarvam.baseUrl,
        SPEECH_ASSEMBLYAI_BASE_URL: fakes.assemblyai.baseUrl,
        // Only what a key makes usable is offered: no development stand-in.
        SPEECH_OFFLINE_STAND_IN: 'false',
        PROVIDER_TIMEOUT_MS: '5000',
      },
    });
    world.ai.script(voiceScript);
    for (const provider of Object.keys(KEYS) as Provider[]) {
      const res = await world.api('/provider-credentials', {
        body: {
          provider,
          api_key: KEYS[provider],
          label: `Our ${provider} key`,
          ...(provider === 'azure' ? { region: 'centralindia' } : {}),
        },
      });
      if (res.status !== 200)
        throw new Error(`storing the ${provider} key: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const voices = await world.api('/voice-configurations');
    catalog = voices.body.data.voice_configurations;
    const dictionary = await world.api('/dictionaries', {
      body: { name: 'Acme words', entries: [{ word: 'Zylofon', alias: 'Zylo phone' }] },
    });
    if (dictionary.status !== 201 && dictionary.status !== 200) {
      throw new Error(`POST /dictionaries answered ${dictionary.status}: ${JSON.stringify(dictionary.body)}`);
    }
    dictionaryId = dictionary.body.data.dictionary?.id ?? dictionary.body.data.id;
  }, 240_000);

  afterAll(async () => {
    await world?.stop();
    await Promise.all(Object.values(fakes ?? {}).map((fake) => fake.close()));
  });

  afterEach(() => {
    for (const fake of Object.values(fakes)) fake.heal();
  });

  /** A catalog voice of the provider in the language, offered on the account's own key. */
  function voiceOf(provider: string, language = /^en/): Any {
    const voice = catalog.find(
      (v) => v.provider === provider && language.test(v.language) && v.availability === 'account_key',
    );
    if (!voice)
      throw new Error(`the catalog offers no ${provider} voice in ${language} on the account's key`);
    return voice;
  }

  /** A call through the gateway that hears the intro, says SAID and hears the echo, then ends. */
  async function talk(agent: Any): Promise<{ callId: string; entries: Any[]; call: Any }> {
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say(SAID);
    await call.media.waitForHeard(ECHO);
    // The reply is heard out before the caller hangs up (a line cut short is recorded as far as it was played).
    await call.media.waitUntilAgentSilent();
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const entries = await world
      .transcript(call.callId, (e) => botLines(e).some((l) => l.content === ECHO))
      .catch(async (error: Error) => {
        const lines = (await world.call(call.callId))?.session?.transcript ?? [];
        throw new Error(
          `${error.message}; its lines: ${JSON.stringify(lines.map((l: Any) => [l.role, l.content]))}`,
        );
      });
    return { callId: call.callId, entries, call: await world.finished(call.callId) };
  }

  const replyOf = (entries: Any[]) => botLines(entries).find((line) => line.content === ECHO);

  it.each([
    ['elevenlabs', 'deepgram'],
    ['cartesia', 'assemblyai'],
    ['azure', 'sarvam'],
    ['deepgram', 'deepgram'],
  ] as const)(
    'speaks with %s and hears with %s on the partner’s keys',
    async (tts, stt) => {
      const voice = voiceOf(tts);
      const agent = await world.agent({
        voice_id: voice.id.replace(/^vc_/, ''),
        spoken_languages: ['en'],
        transcriber: { provider: stt, keyterms: ['Acme'] },
        dictionary_ids: [dictionaryId],
      });
      const { entries, call } = await talk(agent);

      // The transcript says what really served the caller's turn.
      expect(userLines(entries)[0]).toMatchObject({ content: SAID });
      expect(replyOf(entries)?.providers).toMatchObject({ stt, tts });
      // The partner's keys paid for it all: no platform-paid speech on the call.
      expect(call.platform_speech_providers ?? []).toEqual([]);

      // The TTS fake was asked for the catalog's voice, with the partner's key.
      const spokenWith = ttsRequests(tts).find((r) => r.text.includes('Maya from Acme'));
      expect(spokenWith).toBeDefined();
      expect(spokenWith!.key).toBe(KEYS[tts]);
      expect(spokenWith!.voice).toBe(voice.provider_voice_id);
      // The STT fake heard the caller with the partner's key and the agent's words to expect.
      const heard = sttSessions(stt);
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.every((s) => s.key === KEYS[stt])).toBe(true);
      if (stt !== 'sarvam') {
        // Sarvam's streaming API takes no key terms (docs/voice.md).
        expect(heard.some((s) => s.keyterms.includes('Acme') && s.keyterms.includes('Zylofon'))).toBe(true);
      }
    },
    120_000,
  );

  /** What each TTS fake was asked, in one shape: text, voice, key. */
  function ttsRequests(provider: Provider): { text: string; voice: string; key: string | undefined }[] {
    switch (provider) {
      case 'elevenlabs':
        return fakes.elevenlabs.streams.map((s) => ({
          text: s.texts.join(''),
          voice: s.voiceId,
          key: s.apiKey,
        }));
      case 'cartesia':
        return fakes.cartesia.connections.flatMap((c) =>
          c.contexts.map((ctx) => ({
            text: ctx.transcripts.join(''),
            voice: String((ctx.voice as { id?: string } | undefined)?.id),
            key: c.apiKey,
          })),
        );
      case 'deepgram':
        return fakes.deepgram.requests.map((r) => ({
          text: r.text,
          voice: r.model,
          key: r.authorization?.replace(/^Token /, ''),
        }));
      case 'azure':
        return fakes.azure.requests.map((r) => ({
          text: r.ssml?.text ?? '',
          voice: r.ssml?.voice ?? '',
          key: r.subscriptionKey,
        }));
      case 'sarvam':
        return fakes.sarvam.ttsStreams.map((s) => ({
          text: s.texts.join(' '),
          voice: String(s.config?.speaker),
          key: s.apiKey,
        }));
      default:
        throw new Error(`${provider} speaks no text`);
    }
  }

  /** The STT fakes' sessions, in one shape: key and key terms. */
  function sttSessions(provider: Provider): { key: string | undefined; keyterms: string[] }[] {
    switch (provider) {
      case 'deepgram':
        return fakes.deepgram.listens.map((s) => ({
          key: s.authorization?.replace(/^Token /, ''),
          // keywords carry an intensifier (word:2) on older models.
          keyterms: s.keyterms.map((term) => term.replace(/:\d+(\.\d+)?$/, '')),
        }));
      case 'assemblyai':
        return fakes.assemblyai.streams.map((s) => ({ key: s.authorization, keyterms: s.keyterms }));
      case 'sarvam':
        return fakes.sarvam.sttStreams.map((s) => ({ key: s.apiKey, keyterms: [] }));
      default:
        throw new Error(`${provider} hears nothing`);
    }
  }

  it('refuses a wrong key at save with what the provider answered, and stores nothing', async () => {
    for (const provider of Object.keys(KEYS) as Provider[]) {
      const res = await world.api('/provider-credentials', {
        body: {
          provider,
          api_key: 'not-the-right-key',
          ...(provider === 'azure' ? { region: 'centralindia' } : {}),
        },
      });
      // Each provider already has the account's key: a second one is a conflict, so rotate instead.
      expect(res.status).toBe(409);
      const listed = (await world.api('/provider-credentials')).body.data.provider_credentials as Any[];
      const id = listed.find((c) => c.provider === provider).id;
      const rotated = await world.api(`/provider-credentials/${id}`, {
        method: 'PUT',
        body: { api_key: 'not-the-right-key', ...(provider === 'azure' ? { region: 'centralindia' } : {}) },
      });
      expect(rotated.status).toBe(400);
      expect(rotated.body.error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(rotated.body.error)).toMatch(/refused the key/);
      // The good key is still the one stored.
      const kept = (await world.api(`/provider-credentials/${id}`)).body.data.provider_credential;
      expect(kept.key_last4).toBe(`…${KEYS[provider].slice(-4)}`);
      expect(JSON.stringify(kept)).not.toContain(KEYS[provider]);
    }
  });

  it('hands over to the agent’s fallback voice when its provider fails mid-call, and the transcript says so', async () => {
    const voice = voiceOf('elevenlabs');
    const fallback = voiceOf('cartesia');
    const agent = await world.agent({
      voice_id: voice.id.replace(/^vc_/, ''),
      fallback_voice_ids: [fallback.id.replace(/^vc_/, '')],
      spoken_languages: ['en'],
    });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    fakes.elevenlabs.fail('error');
    await call.media.say(SAID);
    await call.media.waitForHeard(ECHO);
    // The reply is heard out before the caller hangs up (a line cut short is recorded as far as it was played).
    await call.media.waitUntilAgentSilent();
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    const entries = await world.transcript(call.callId, (e) => botLines(e).some((l) => l.content === ECHO));
    expect(replyOf(entries)?.providers).toMatchObject({ tts: 'cartesia' });
    const cartesiaSpoke = ttsRequests('cartesia').find((r) => r.text.includes('You said'));
    expect(cartesiaSpoke?.voice).toBe(fallback.provider_voice_id);
  }, 120_000);

  it('follows a caller who switches from English to Hindi: recognised in both, answered by the Hindi voice', async () => {
    const english = voiceOf('sarvam', /^en/);
    const hindi = voiceOf('sarvam', /^hi/);
    const agent = await world.agent({
      voice_id: english.id.replace(/^vc_/, ''),
      fallback_voice_ids: [hindi.id.replace(/^vc_/, '')],
      spoken_languages: ['en', 'hi'],
      transcriber: { provider: 'sarvam' },
    });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say(SAID);
    await call.media.waitForHeard(ECHO);
    await call.media.waitUntilAgentSilent();
    // Romanised Hindi the fake recogniser detects as hi-IN.
    await call.media.say('Mera order kab aayega?');
    await call.media.waitForHeard('You said Mera order kab aayega.');
    await call.media.waitUntilAgentSilent();
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');

    // Both languages were listened for (auto-detection), and each reply came in the caller's language.
    const session = fakes.sarvam.sttStreams.at(-1)!;
    expect(session.query['language-code']).toBe('unknown');
    const englishReply = ttsRequests('sarvam').find((r) => r.text.includes('You said I would like'));
    const hindiReply = ttsRequests('sarvam').find((r) => r.text.includes('You said Mera order'));
    expect(englishReply?.voice).toBe(english.provider_voice_id);
    expect(hindiReply?.voice).toBe(hindi.provider_voice_id);
  }, 120_000);

  it('offers no voice of a provider the account has no key for once the key is removed', async () => {
    const listed = (await world.api('/provider-credentials')).body.data.provider_credentials as Any[];
    const cartesia = listed.find((c) => c.provider === 'cartesia');
    const removed = await world.api(`/provider-credentials/${cartesia.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    const voices = (await world.api('/voice-configurations')).body.data.voice_configurations as Any[];
    expect(voices.some((v) => v.provider === 'cartesia')).toBe(false);
    // An agent cannot be given one, and the refusal says what to do.
    const refused = await world.api('/agent', {
      body: {
        agent_name: `No key ${randomBytes(3).toString('hex')}`,
        prompt: 'You are Maya.',
        voice_id: catalog.find((v) => v.provider === 'cartesia').id.replace(/^vc_/, ''),
        agent_type: 'outbound',
      },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toMatch(/provider-credentials/);
    // Stored again for any later test (the fake checks it live again).
    const restored = await world.api('/provider-credentials', {
      body: { provider: 'cartesia', api_key: KEYS.cartesia },
    });
    expect(restored.status).toBe(200);
  });
});
