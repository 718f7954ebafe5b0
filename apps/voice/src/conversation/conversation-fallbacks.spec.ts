import { Phrases } from './phrases';
import { CallHarness } from './testing/conversation-harness';

/**
 * Providers listed as fallbacks (STT_PROVIDER=deepgram,openai, TTS_PROVIDER=openai,offline, LLM_FALLBACK_BASE_URL):
 * a provider that fails mid-call hands the call over to the next one, which takes the work in flight, and
 * every answered turn names the providers that served it.
 */
describe('conversation: provider fallbacks', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  const text = (reply: string) => ({ deltas: [{ type: 'text' as const, text: reply }] });
  const bots = (c: CallHarness) => c.reporter.lines.filter((l) => l.role === 'bot');

  it('names the providers that served each answered turn', async () => {
    call = new CallHarness({ sttTexts: ['Hello?'], model: [text('Hi there.')], fallbacks: {} }).start();
    call.say(400);
    await call.until(() => bots(call!).length === 1, 'the reply');
    expect(bots(call)[0]).toMatchObject({
      content: 'Hi there.',
      providers: { stt: 'deepgram', llm: 'platform', llm_model: 'primary', tts: 'openai' },
    });
    expect(call.fallbacks).toEqual([]);
  });

  it("names the providers of the intro line: the call's transcriber, no model, the synthesizer that spoke it", async () => {
    call = new CallHarness({ agent: { introMessage: 'Hello, how can I help?' }, fallbacks: {} }).start();
    await call.until(() => bots(call!).length === 1, 'the intro line');
    expect(bots(call)[0]).toMatchObject({
      content: 'Hello, how can I help?',
      providers: { stt: 'deepgram', llm: null, tts: 'openai' },
    });
  });

  it('names the fallback synthesizer on an intro line it took over', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hello there.' }, fallbacks: {} });
    call.tts.failOn = (said) => said === 'Hello there.';
    call.start();
    await call.until(() => bots(call!).length === 1, 'the intro line');
    expect(bots(call)[0]).toMatchObject({
      content: 'Hello there.',
      providers: { stt: 'deepgram', llm: null, tts: 'offline' },
    });
  });

  it('STT failing mid-call: the utterance in flight is transcribed by the next provider and the call goes on', async () => {
    call = new CallHarness({
      sttTexts: ['First question?', 'Second question?'],
      model: [text('First answer.'), text('Second answer.')],
      fallbacks: {},
    }).start();
    call.say(400);
    await call.until(() => bots(call!).length === 1, 'the first reply');
    call.stt.fail = true;
    call.say(600);
    await call.until(() => bots(call!).length === 2, 'the second reply');
    const lines = call.reporter.lines.map((l) => [l.role, l.content]);
    expect(lines).toEqual([
      ['user', 'First question?'],
      ['bot', 'First answer.'],
      ['user', 'Second question?'],
      ['bot', 'Second answer.'],
    ]);
    // The fallback heard the whole second utterance, as the primary had.
    expect(call.sttFallback!.framesPerUtterance[0]).toBe(call.stt.framesPerUtterance[1]);
    expect(bots(call).map((l) => l.providers?.stt)).toEqual(['deepgram', 'openai']);
    expect(call.fallbacks).toEqual([
      { failure: expect.stringMatching(/^stt provider failed/), next: 'openai' },
    ]);
    expect(call.reporter.hangups).toEqual([]);
    expect(call.result).toBeNull();
  });

  it('TTS failing mid-call: the sentence in flight is spoken by the next provider, which keeps the call', async () => {
    call = new CallHarness({
      sttTexts: ['Hello?', 'And then?'],
      model: [text('First part. Second part.'), text('More.')],
      fallbacks: {},
    });
    call.tts.failOn = (said) => said === 'Second part.';
    call.start();
    call.say(400);
    await call.until(() => bots(call!).length === 1, 'the reply');
    expect(bots(call)[0]).toMatchObject({
      content: 'First part. Second part.',
      providers: { tts: 'offline' },
    });
    expect(call.ttsFallback!.requests.map((r) => r.text)).toEqual(['Second part.']);
    // The call stays on the fallback: the primary is not asked again.
    call.say(400);
    await call.until(() => bots(call!).length === 2, 'the next reply');
    expect(call.tts.requests.map((r) => r.text)).toEqual(['First part.', 'Second part.']);
    expect(call.ttsFallback!.requests.map((r) => r.text)).toEqual(['Second part.', 'More.']);
    expect(call.fallbacks.map((f) => f.next)).toEqual(['offline']);
    expect(call.reporter.hangups).toEqual([]);
  });

  it('LLM failing before any of its reply was spoken: the fallback model answers the turn and the next ones', async () => {
    call = new CallHarness({
      sttTexts: ['Hello?', 'And then?'],
      model: [{ deltas: [], fail: true }],
      fallbacks: { model: [text('From the fallback.'), text('Still the fallback.')] },
    }).start();
    call.say(400);
    await call.until(() => bots(call!).length === 1, 'the reply');
    expect(bots(call)[0]).toMatchObject({
      content: 'From the fallback.',
      providers: { stt: 'deepgram', llm: 'platform', llm_model: 'fallback', tts: 'openai' },
    });
    call.say(400);
    await call.until(() => bots(call!).length === 2, 'the next reply');
    expect(bots(call)[1]).toMatchObject({
      content: 'Still the fallback.',
      providers: { llm_model: 'fallback' },
    });
    expect(call.model.requests).toHaveLength(1);
    // The fallback got the same conversation the primary was asked.
    expect(call.modelFallback!.requests[0].messages).toEqual(call.model.requests[0].messages);
    expect(call.fallbacks.map((f) => f.next)).toEqual(['platform:fallback']);
    expect(call.reporter.hangups).toEqual([]);
  });

  it('LLM failing after part of its reply was spoken: no fallback can finish it, the call apologises', async () => {
    call = new CallHarness({
      sttTexts: ['Hello?'],
      fallbacks: { model: [text('Never asked.')] },
    });
    call.model.stream = async function* () {
      yield { type: 'text' as const, text: 'Sure, let me see. ' };
      yield { type: 'text' as const, text: 'Your order' };
      throw new Error('connection reset');
    };
    call.start();
    call.say(400);
    const result = await call.done();
    expect(result.endCallReason).toBe('llm_provider_failed');
    expect(call.modelFallback!.requests).toHaveLength(0);
    expect(bots(call).at(-1)).toMatchObject({ content: Phrases.apology });
  });

  it('the last provider failing too ends the call as before', async () => {
    call = new CallHarness({ sttTexts: ['Hello?'], fallbacks: {} });
    call.stt.fail = true;
    call.sttFallback!.fail = true;
    call.start();
    call.say(400);
    const result = await call.done();
    expect(result.endCallReason).toBe('stt_provider_failed');
    expect(call.fallbacks.map((f) => f.next)).toEqual(['openai']);
  });
});
