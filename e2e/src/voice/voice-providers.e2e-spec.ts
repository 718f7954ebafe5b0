// Cloud speech and language providers chosen by the voice service's settings, against the fake OpenAI-compatible
// server: what each request carries (model, language, voice, format), and what a provider failing in the middle
// of a call does: a spoken apology, never a silent line, and a hang-up whose end_call_reason names the provider.
import { waitFor } from '@vap/testing';
import { ANSWERING_MODEL_PROVIDERS } from '@vap/messages';
import { FAKE_AI_MODELS, lastUserText } from '../../support/fake-media';
import { ALLOY_PROVIDER_VOICE, ALLOY_VOICE, FAKE_FALLBACK_MODEL, VoiceWorld } from './voice-fixtures';
import { voiceScript } from './voice-script';

const INTRO = 'Hello, this is Maya from Acme.';

describe('cloud providers through the fake OpenAI-compatible server', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'voice_providers',
      providers: { stt: 'openai', tts: 'openai', llm: true },
      // The model's timeout is short, so that a model that hangs is given up on quickly; speech keeps room for
      // the fake's synthesis on a loaded machine (the apology after a failure must still be heard).
      env: { PROVIDER_TIMEOUT_MS: '5000', LLM_TIMEOUT_MS: '2000' },
    });
    world.ai.script(voiceScript);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  afterEach(() => {
    world?.ai.heal();
  });

  it('transcribes with openai STT and speaks with openai TTS, with the agent’s model, language and voice', async () => {
    // An OpenAI voice of the catalog: the deployment's OpenAI TTS (TTS_PROVIDER=openai) speaks it.
    const agent = await world.agent({ spoken_languages: ['hinglish'], voice_id: ALLOY_VOICE });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Mera order kab aayega?');
    await call.media.waitForHeard('You said Mera order kab aayega.');
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');

    const transcription = world.ai.transcriptions.find((t) => t.text === 'Mera order kab aayega?');
    expect(transcription).toMatchObject({
      authorization: `Bearer ${world.ai.apiKey}`,
      model: FAKE_AI_MODELS.stt,
      language: 'hi',
      channels: 1,
      failed: false,
    });
    // The utterance is posted as a WAV of the caller's speech, not the whole call.
    expect(transcription!.durationMs).toBeGreaterThan(1000);
    expect(transcription!.durationMs).toBeLessThan(10_000);

    const spoken = world.ai.speeches.map((s) => s.input);
    expect(spoken).toEqual(expect.arrayContaining([INTRO, 'You said Mera order kab aayega.']));
    expect(world.ai.speeches.find((s) => s.input === INTRO)).toMatchObject({
      authorization: `Bearer ${world.ai.apiKey}`,
      model: FAKE_AI_MODELS.tts,
      voice: ALLOY_PROVIDER_VOICE,
      responseFormat: 'pcm',
      speed: 1,
    });
    const entries = await world.transcript(call.callId, (e) => e.length >= 3);
    expect(entries[1]).toMatchObject({ role: 'user', content: 'Mera order kab aayega?' });
    expect(entries[2].latency.tts_first_byte_ms).toBeGreaterThanOrEqual(0);
  });

  /** A call that gets as far as the caller's first turn, then the provider fails; the agent must apologise. */
  async function failingCall(expectedReason: string, breakProvider: () => void): Promise<void> {
    const agent = await world.agent({ voice_id: ALLOY_VOICE });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    breakProvider();
    const heardBefore = call.media.heard.length;
    await call.media.say('I would like to know my order status.');
    // Something is said after the failure: the apology, through whatever still works.
    await waitFor(() => call.media.heard.length > heardBefore || undefined, {
      timeoutMs: 30_000,
      description: 'an apology after the provider failed',
    });
    const apology = call.media.heard[heardBefore].text;
    expect(apology).not.toBe('You said I would like to know my order status.');
    expect(apology).toMatch(/sorry|apolog/i);
    await world.hungUpByPlatform(call);
    const done = await world.finished(call.callId);
    expect(done.end_call_reason).toBe(expectedReason);
    expect(done.status).toBe('completed');
  }

  it('STT failing mid-call (500): apology, hang-up with stt_provider_failed', async () => {
    await failingCall('stt_provider_failed', () => world.ai.fail('transcriptions', 'error'));
    expect(world.ai.transcriptions.some((t) => t.failed)).toBe(true);
  });

  it('LLM hanging mid-call: given up after the timeout, apology, hang-up with llm_provider_failed', async () => {
    await failingCall('llm_provider_failed', () => world.ai.fail('chat', 'hang'));
    expect(world.ai.chats.some((c) => c.failed)).toBe(true);
  });

  it('TTS dropping the connection mid-reply: apology, hang-up with tts_provider_failed', async () => {
    // The reply's synthesis breaks; the apology after it is synthesised again and works.
    await failingCall('tts_provider_failed', () => world.ai.fail('speech', 'close', { times: 1 }));
    expect(world.ai.speeches.some((s) => s.failed)).toBe(true);
  });

  it('LLM stream cut mid-reply (connection closed): apology, hang-up with llm_provider_failed', async () => {
    await failingCall('llm_provider_failed', () => world.ai.fail('chat', 'close'));
  });
});

// Deepgram first (healthy, it hears every call), then the fallbacks taking over when the primaries fail.
describe('deepgram live STT and the fallback providers: STT_PROVIDER=deepgram,openai, TTS_PROVIDER=openai,offline, LLM_FALLBACK_BASE_URL', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'voice_fallbacks',
      providers: { stt: 'deepgram,openai', tts: 'openai,offline', llm: true },
      llmFallback: true,
    });
    world.ai.script(voiceScript);
    // The fallback model answers in words of its own, so the caller hears which model replied.
    world.aiFallback!.script((request) => ({
      text: `Fallback heard ${lastUserText(request).replace(/[.?!]+$/, '')}.`,
    }));
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  afterEach(() => {
    world?.ai.heal();
  });

  it('streams the caller’s mu-law to one live socket per call and answers the final transcript', async () => {
    const agent = await world.agent({ spoken_languages: ['en'], voice_id: ALLOY_VOICE });
    const call = await world.dial('carrier_a', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Please check my refund.');
    await call.media.waitForHeard('You said Please check my refund.');
    await call.media.say('And my invoice too.');
    await call.media.waitForHeard('You said And my invoice too.');
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');

    expect(world.ai.listens).toHaveLength(1);
    const session = world.ai.listens[0];
    expect(session.authorization).toBe(`Token ${world.ai.apiKey}`);
    expect(session.query).toMatchObject({
      encoding: 'mulaw',
      sample_rate: '8000',
      interim_results: 'true',
      language: 'en',
      model: FAKE_AI_MODELS.deepgram,
    });
    expect(Number(session.query.endpointing)).toBeGreaterThan(0);
    expect(session.audioBytes).toBeGreaterThan(8000);
    const finals = session.sent.filter((m) => m.type === 'Results' && m.is_final === true);
    expect(finals.length).toBeGreaterThanOrEqual(2);
    const entries = await world.transcript(call.callId, (e) => e.length >= 5);
    expect(entries.filter((e) => e.role === 'user').map((e) => e.content)).toEqual([
      'Please check my refund.',
      'And my invoice too.',
    ]);
    // The socket is closed once the call is over.
    await waitFor(() => session.closed || undefined, {
      timeoutMs: 15_000,
      description: 'the live socket to close',
    });
  });

  it('the primaries failing mid-call hand over to the fallbacks, the call goes on, and each turn names who served it', async () => {
    const agent = await world.agent({ spoken_languages: ['en'], voice_id: ALLOY_VOICE });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Where is my order?');
    await call.media.waitForHeard('You said Where is my order.');
    await call.media.waitUntilAgentSilent();

    // Deepgram drops the live stream and refuses new ones, the primary model and the speech endpoint answer 500.
    world.ai.fail('listen', 'error');
    world.ai.fail('chat', 'error');
    world.ai.fail('speech', 'error');
    await call.media.say('Please check again.');
    // The utterance in flight is transcribed by openai, answered by the fallback model, spoken offline.
    await call.media.waitForHeard('Fallback heard Please check again.');
    await call.media.waitUntilAgentSilent();
    // The call stays on the fallbacks.
    await call.media.say('Thank you.');
    await call.media.waitForHeard('Fallback heard Thank you.');
    await call.media.waitUntilAgentSilent();
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');

    const done = await world.finished(call.callId);
    expect(done.status).toBe('completed');
    // Ended by the caller, not by a provider failure.
    expect(String(done.end_call_reason)).not.toMatch(/provider/);
    const transcript = done.session.transcript;
    expect(transcript.map((e: { role: string; content: string }) => [e.role, e.content])).toEqual([
      ['bot', INTRO],
      ['user', 'Where is my order?'],
      ['bot', 'You said Where is my order.'],
      ['user', 'Please check again.'],
      ['bot', 'Fallback heard Please check again.'],
      ['user', 'Thank you.'],
      ['bot', 'Fallback heard Thank you.'],
    ]);
    // The intro is the platform's line: no model wrote it; the voice that spoke it and the call's ear are named.
    expect(transcript[0].providers).toEqual({ stt: 'deepgram', llm: null, llm_model: null, tts: 'openai' });
    // The deployment's default model (LLM_BASE_URL's server, then its fallback) is `platform`, by its model id.
    expect(transcript[2].providers).toEqual({
      stt: 'deepgram',
      llm: 'platform',
      llm_model: FAKE_AI_MODELS.llm,
      tts: 'openai',
    });
    const fallbackLine = { stt: 'openai', llm: 'platform', llm_model: FAKE_FALLBACK_MODEL, tts: 'offline' };
    expect(transcript[4].providers).toEqual(fallbackLine);
    expect(transcript[6].providers).toEqual(fallbackLine);

    // openai STT heard the utterance in flight whole, with its own settings.
    expect(world.ai.transcriptions.find((t) => t.text === 'Please check again.')).toMatchObject({
      authorization: `Bearer ${world.ai.apiKey}`,
      model: FAKE_AI_MODELS.stt,
      failed: false,
    });
    // The fallback model was asked with its own key and model, the conversation so far included.
    const fallbackChats = world.aiFallback!.chats;
    expect(fallbackChats).toHaveLength(2);
    expect(fallbackChats[0]).toMatchObject({
      authorization: `Bearer ${world.aiFallback!.apiKey}`,
      model: FAKE_FALLBACK_MODEL,
      failed: false,
    });
    expect(JSON.stringify(fallbackChats[0].messages)).toContain('You said Where is my order.');
    // The primary model was tried once after it broke, then no more.
    expect(world.ai.chats.filter((c) => c.failed)).toHaveLength(1);

    // The API documents the field.
    const doc = (await (await fetch(`${world.gateway}/api/v2/openapi.json`)).json()) as {
      components: {
        schemas: Record<
          string,
          { properties: Record<string, { $ref?: string; allOf?: { $ref: string }[] }> }
        >;
      };
    };
    const entry = doc.components.schemas.TranscriptEntryDto.properties.providers;
    expect(entry.allOf?.[0]?.$ref ?? entry.$ref).toBe('#/components/schemas/TurnProvidersDto');
    expect(doc.components.schemas.TurnProvidersDto.properties).toMatchObject({
      // A speech-to-speech model (openai, google) hears and speaks its own lines.
      stt: { enum: ['offline', 'local', 'openai', 'deepgram', 'assemblyai', 'sarvam', 'google'] },
      // null: a line the platform says itself (the intro), which no model wrote.
      llm: { enum: [...ANSWERING_MODEL_PROVIDERS, null] },
      tts: {
        enum: [
          'offline',
          'local',
          'openai',
          'elevenlabs',
          'cartesia',
          'deepgram',
          'azure',
          'sarvam',
          'google',
        ],
      },
    });
  });
});
