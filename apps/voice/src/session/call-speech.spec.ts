import type { SpeechPlan, SttPlanEntry, TtsPlanEntry, VoiceCallContext } from '@vap/messages';
import {
  OpenAiSttProvider,
  OpenAiTtsProvider,
  ProviderError,
  type SttOptions,
  type SttProvider,
  type SttSession,
  type TtsProvider,
  type TtsRequest,
} from '@vap/speech';
import { callSpeechOf, OFFLINE_RECOGNISER_WARNING, speechNotice } from './call-speech';

/** A provider that records what it was asked and speaks nothing. */
class RecordingTts implements TtsProvider {
  readonly requests: TtsRequest[] = [];
  constructor(readonly name: TtsProvider['name']) {}
  async *synthesize(request: TtsRequest): AsyncIterable<Int16Array> {
    this.requests.push(request);
    yield new Int16Array(160);
  }
}

class RecordingStt implements SttProvider {
  readonly opened: SttOptions[] = [];
  constructor(readonly name: SttProvider['name']) {}
  async open(options: SttOptions): Promise<SttSession> {
    this.opened.push(options);
    return { push: () => undefined, finish: async () => '', close: async () => undefined };
  }
}

const context = (languages: string[] = ['en']) =>
  ({
    callId: 'call_1',
    partnerId: 'p_1',
    agent: { spokenLanguages: languages },
  }) as unknown as VoiceCallContext;

const voice = (over: Partial<TtsPlanEntry>): TtsPlanEntry => ({
  provider: 'openai',
  voiceId: 'v-1',
  providerVoiceId: 'alloy',
  model: 'gpt-4o-mini-tts',
  speed: 1,
  volume: 1,
  language: 'en-US',
  ...over,
});

const key = (paidBy: 'account' | 'platform') => ({
  provider: 'openai' as const,
  apiKey: 'sk-test',
  baseUrl: 'https://api.openai.example/v1',
  paidBy,
});

const plan = (over: Partial<SpeechPlan>): SpeechPlan => ({
  tts: [],
  stt: [],
  keyterms: [],
  pronunciations: [],
  ...over,
});

async function drain(provider: TtsProvider, text = 'hello'): Promise<void> {
  for await (const chunk of provider.synthesize({ text, voice: {} as TtsRequest['voice'] })) void chunk;
}

describe('callSpeechOf', () => {
  const timeoutMs = 2000;

  it('gives a voice with a key its own adapter for the call, and closes the chain with the offline engine', () => {
    const offline = new RecordingTts('offline');
    const speech = callSpeechOf(context(), plan({ tts: [voice({ credential: key('account') })] }), {
      timeoutMs,
      defaults: { stt: [new RecordingStt('offline')], tts: [offline] },
    });
    expect(speech.tts.map((p) => p.name)).toEqual(['openai', 'offline']);
    expect(speech.voice).toMatchObject({
      providerVoiceId: 'alloy',
      model: 'gpt-4o-mini-tts',
      language: 'en-US',
    });
    // The adapter is the plugin's, made for this call with the plan's key.
    expect((speech.tts[0] as unknown as { inner: unknown }).inner).toBeInstanceOf(OpenAiTtsProvider);
  });

  it("speaks a voice without a key on the deployment's provider of that name, else on the offline stand-in", async () => {
    const deploymentOpenAi = new RecordingTts('openai');
    const offline = new RecordingTts('offline');
    const speech = callSpeechOf(
      context(),
      plan({
        tts: [
          voice({ provider: 'azure', providerVoiceId: 'en-IN-NeerjaNeural', language: 'en-IN' }),
          voice({ providerVoiceId: 'nova' }),
        ],
      }),
      { timeoutMs, defaults: { stt: [], tts: [deploymentOpenAi, offline] } },
    );
    // Azure has no key: the offline engine stands in (and the transcript names offline); openai runs on the
    // deployment's settings with its own voice, never Azure's.
    expect(speech.tts.map((p) => p.name)).toEqual(['offline', 'openai']);
    await drain(speech.tts[0]);
    await drain(speech.tts[1]);
    expect(offline.requests[0].voice.providerVoiceId).toBe('en-IN-NeerjaNeural');
    expect(deploymentOpenAi.requests[0].voice.providerVoiceId).toBe('nova');
    // The stand-in costs nothing; the deployment's OpenAI key is the platform's.
    expect(speech.usage.platformPaid).toEqual(['openai']);
  });

  it('speaks and hears with local speech what has no key when the deployment runs it, paid by nobody', async () => {
    const local = new RecordingTts('local');
    const offline = new RecordingTts('offline');
    const localStt = new RecordingStt('local');
    const speech = callSpeechOf(
      context(),
      plan({
        tts: [voice({ provider: 'elevenlabs', providerVoiceId: 'u8jzPde0IgxLd6GncfBA', language: 'hi-IN' })],
        stt: [{ provider: 'deepgram', languages: ['hi'] }],
      }),
      { timeoutMs, defaults: { stt: [localStt], tts: [local, offline] } },
    );
    // ElevenLabs has no key: eSpeak NG speaks the line in the voice's language; the offline engine closes the chain.
    expect(speech.tts.map((p) => p.name)).toEqual(['local', 'offline']);
    await drain(speech.tts[0]);
    expect(local.requests[0].voice.language).toBe('hi-IN');
    expect(offline.requests).toEqual([]);
    // Deepgram has no key either: the deployment's local recogniser hears the call.
    expect(speech.stt.map((p) => p.name)).toEqual(['local']);
    const session = await speech.stt[0].open({ languages: ['en'] });
    await session.finish();
    expect(speech.usage.platformPaid).toEqual([]);
  });

  it('hands the dictionary pronunciations to every voice and records the platform-paid ones', async () => {
    const offline = new RecordingTts('offline');
    const speech = callSpeechOf(
      context(),
      plan({
        tts: [voice({ provider: 'offline', providerVoiceId: 'offline' })],
        pronunciations: [{ word: 'Acme', alias: 'Ack me' }],
      }),
      { timeoutMs, defaults: { stt: [], tts: [offline] } },
    );
    expect(speech.tts).toHaveLength(1);
    await drain(speech.tts[0]);
    expect(offline.requests[0].pronunciations).toEqual([{ word: 'Acme', alias: 'Ack me' }]);
  });

  it("answers in the caller's language with the plan's voice that speaks it", async () => {
    const offline = new RecordingTts('offline');
    const speech = callSpeechOf(
      context(['en', 'hi']),
      plan({
        tts: [
          voice({ provider: 'offline', providerVoiceId: 'en-voice', language: 'en-IN' }),
          voice({ provider: 'offline', providerVoiceId: 'hi-voice', language: 'hi-IN' }),
        ],
      }),
      { timeoutMs, defaults: { stt: [], tts: [offline] } },
    );
    await drain(speech.tts[0]);
    speech.callerLanguage.current = 'hi';
    await drain(speech.tts[0]);
    speech.callerLanguage.current = 'hinglish';
    await drain(speech.tts[0]);
    speech.callerLanguage.current = 'en';
    await drain(speech.tts[0]);
    expect(offline.requests.map((r) => r.voice.providerVoiceId)).toEqual([
      'en-voice',
      'hi-voice',
      'hi-voice',
      'en-voice',
    ]);
  });

  it("opens the agent's transcriber with its languages, model, words and options, then the deployment's", async () => {
    const deploymentStt = new RecordingStt('offline');
    const transcriber: SttPlanEntry = {
      provider: 'openai',
      model: 'gpt-4o-transcribe',
      languages: ['en', 'hi'],
      options: {},
      credential: key('platform'),
    };
    const speech = callSpeechOf(context(), plan({ stt: [transcriber], keyterms: ['Acme', 'Zylo'] }), {
      timeoutMs,
      defaults: { stt: [deploymentStt], tts: [new RecordingTts('offline')] },
    });
    expect(speech.stt.map((p) => p.name)).toEqual(['openai', 'offline']);
    expect((speech.stt[0] as unknown as { inner: unknown }).inner).toBeInstanceOf(OpenAiSttProvider);
    expect(speech.usage.platformPaid).toEqual([]);
    // OpenAI transcribes whole utterances: opening sends nothing, so it has not served the call yet.
    await speech.stt[0].open({ languages: ['en'] });
    expect(speech.usage.platformPaid).toEqual([]);
    await speech.stt[1].open({ languages: ['en'] });
    expect(deploymentStt.opened[0]).toEqual({ languages: ['en'] });
  });

  it("passes the plan's languages, model, words and options to a transcriber run on the deployment's settings", async () => {
    const deploymentDeepgram = new RecordingStt('deepgram');
    const speech = callSpeechOf(
      context(),
      plan({
        stt: [
          { provider: 'deepgram', model: 'nova-3', languages: ['en', 'hi'], options: { smart_format: true } },
        ],
        keyterms: ['Acme'],
      }),
      { timeoutMs, defaults: { stt: [deploymentDeepgram], tts: [new RecordingTts('offline')] } },
    );
    expect(speech.stt.map((p) => p.name)).toEqual(['deepgram']);
    await speech.stt[0].open({ languages: ['en'] });
    expect(deploymentDeepgram.opened[0]).toMatchObject({
      languages: ['en', 'hi'],
      model: 'nova-3',
      keyterms: ['Acme'],
      providerOptions: { smart_format: true },
    });
    // The deployment's key pays for it.
    expect(speech.usage.platformPaid).toEqual(['deepgram']);
  });

  it('lists a platform-keyed provider only once it served: not one that refused every request (HTTP 503)', async () => {
    const refused = new ProviderError('tts', 'deepgram', 'HTTP 503');
    const failingTts: TtsProvider = {
      name: 'deepgram',
      // eslint-disable-next-line require-yield
      async *synthesize() {
        throw refused;
      },
    };
    const failingStt: SttProvider = {
      name: 'deepgram',
      open: () => Promise.reject(new ProviderError('stt', 'deepgram', 'HTTP 503')),
    };
    const offline = new RecordingTts('offline');
    const speech = callSpeechOf(
      context(),
      plan({
        tts: [voice({ provider: 'deepgram', providerVoiceId: 'aura-2-thalia-en' })],
        stt: [{ provider: 'deepgram', model: 'nova-3', languages: ['en'], options: {} }],
      }),
      { timeoutMs, defaults: { stt: [failingStt, new RecordingStt('offline')], tts: [failingTts, offline] } },
    );
    expect(speech.tts.map((p) => p.name)).toEqual(['deepgram', 'offline']);
    await expect(drain(speech.tts[0])).rejects.toBe(refused);
    await expect(speech.stt[0].open({ languages: ['en'] })).rejects.toBeInstanceOf(ProviderError);
    await drain(speech.tts[1]);
    await speech.stt[1].open({ languages: ['en'] });
    expect(speech.usage.platformPaid).toEqual([]);

    // The same provider once it answers: audio back, the stream accepted.
    const working = callSpeechOf(
      context(),
      plan({ tts: [voice({ provider: 'deepgram', providerVoiceId: 'aura-2-thalia-en' })] }),
      { timeoutMs, defaults: { stt: [new RecordingStt('deepgram')], tts: [new RecordingTts('deepgram')] } },
    );
    await drain(working.tts[0]);
    expect(working.usage.platformPaid).toEqual(['deepgram']);
    await working.stt[0].open({ languages: ['en'] });
    expect(working.usage.platformPaid).toEqual(['deepgram']);
  });

  it('lists a whole-utterance transcriber at its first transcript, not at a failed one', async () => {
    let fail = true;
    const rest: SttProvider = {
      name: 'openai',
      open: async () => ({
        push: () => undefined,
        finish: async () => {
          if (fail) throw new ProviderError('stt', 'openai', 'HTTP 503');
          return 'hello';
        },
        speculate: async () => 'hel',
        close: async () => undefined,
      }),
    };
    const speech = callSpeechOf(context(), plan({}), {
      timeoutMs,
      defaults: { stt: [rest], tts: [new RecordingTts('offline')] },
    });
    const session = await speech.stt[0].open({ languages: ['en'] });
    await expect(session.finish()).rejects.toBeInstanceOf(ProviderError);
    expect(speech.usage.platformPaid).toEqual([]);
    fail = false;
    await expect(session.finish()).resolves.toBe('hello');
    expect(speech.usage.platformPaid).toEqual(['openai']);
  });

  it('without a plan (agents unreachable) runs on the deployment defaults with the offline voice', () => {
    const offline = new RecordingTts('offline');
    const stt = new RecordingStt('offline');
    const speech = callSpeechOf(context(['hi']), plan({}), {
      timeoutMs,
      defaults: { stt: [stt], tts: [offline] },
    });
    expect(speech.tts.map((p) => p.name)).toEqual(['offline']);
    expect(speech.voice).toMatchObject({ providerVoiceId: 'offline', language: 'hi' });
    expect(speech.stt.map((p) => p.name)).toEqual(['offline']);
  });
});

describe('speechNotice', () => {
  it('warns only when the session hears with the offline recogniser, in the team’s words', () => {
    const offline = speechNotice({ stt: [new RecordingStt('offline')], tts: [new RecordingTts('offline')] });
    expect(offline).toEqual({
      type: 'speech',
      stt: 'offline',
      tts: 'offline',
      warning: OFFLINE_RECOGNISER_WARNING,
    });
    expect(OFFLINE_RECOGNISER_WARNING).toMatch(/Transcriber tab.*Provider keys/);
    expect(OFFLINE_RECOGNISER_WARNING).not.toMatch(/STT_PROVIDER|\/provider-credentials/);
    // An agent's transcriber on a key hears a person: nothing to warn of, whatever closes the chain.
    const heard = speechNotice({
      stt: [new RecordingStt('deepgram'), new RecordingStt('offline')],
      tts: [new RecordingTts('offline')],
    });
    expect(heard).toEqual({ type: 'speech', stt: 'deepgram', tts: 'offline' });
  });
});
