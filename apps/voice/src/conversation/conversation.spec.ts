import { FRAME_MS } from '@vap/media';
import { READ_AHEAD_FRAMES } from './agent-speech';
import { CallHarness, TTS_MS_PER_WORD } from './testing/conversation-harness';

describe('conversation: turns', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it('takes synthesised audio from the provider only a little ahead of playback', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    call = new CallHarness({ agent: { introMessage: `${words}.` } }).start();
    await call.until(() => call!.commands('sendAudio').length >= 100, 'two seconds played');
    const sent = call.commands('sendAudio').length;
    // 40 words are 8 s of speech; what was taken is what played plus at most the read-ahead (and one chunk).
    const takenFrames = call.tts.samplesTaken / 160;
    expect(takenFrames).toBeLessThanOrEqual(sent + READ_AHEAD_FRAMES + 3);
    expect(takenFrames).toBeGreaterThanOrEqual(sent);
    await call.until(() => call!.reporter.lines.length === 1, 'the intro line');
    expect(call.reporter.lines[0].content).toBe(`${words}.`);
    expect(call.tts.samplesTaken).toBe((40 * TTS_MS_PER_WORD * 8000) / 1000);
  });

  it('speaks the intro with variables once the stream starts, paced one frame per tick', async () => {
    call = new CallHarness({
      agent: { introMessage: 'Hello from {{company}}, how can I help?' },
      timeScale: 10,
    }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro line');
    expect(call.reporter.lines[0]).toMatchObject({
      role: 'bot',
      content: 'Hello from Acme, how can I help?',
    });
    expect(call.reporter.lines[0].latency).toBeUndefined();
    expect(call.tts.requests[0]).toMatchObject({ text: 'Hello from Acme, how can I help?' });

    // 7 words at 200 ms = 70 frames, sent on a 2 ms (wall) clock: never a burst.
    const audio = call.commands('sendAudio');
    expect(audio).toHaveLength((7 * TTS_MS_PER_WORD) / FRAME_MS);
    const wallSpan = audio[audio.length - 1].at - audio[0].at;
    expect(wallSpan).toBeGreaterThanOrEqual(((audio.length - 1) * FRAME_MS) / call.timeScale - 2);
    for (let i = 2; i < audio.length; i++) {
      expect(audio[i].at - audio[i - 2].at).toBeGreaterThan(FRAME_MS / call.timeScale / 2);
    }
    // The mark follows the sentence's last frame.
    const markIndex = call.sent.findIndex((s) => s.command.type === 'mark');
    expect(markIndex).toBe(call.sent.length - 1);
    call.conversation.end('test_over');
    const result = await call.done();
    expect(result.pacing?.underruns).toBe(0);
    expect(result.endCallReason).toBe('test_over');
    expect(call.reporter.hangups).toEqual(['test_over']);
  });

  it('answers a caller turn: STT text to the model, the reply spoken and both lines reported with latency', async () => {
    call = new CallHarness({
      sttTexts: ['What are your opening hours?'],
      model: [{ deltas: [{ type: 'text', text: 'We are open nine to five.' }] }],
    }).start();
    call.say(600);
    await call.until(() => call!.reporter.lines.length === 2, 'user and agent lines');
    const [user, bot] = call.reporter.lines;
    expect(user).toMatchObject({ role: 'user', content: 'What are your opening hours?' });
    expect(bot).toMatchObject({ role: 'bot', content: 'We are open nine to five.' });
    expect(bot.atMs).toBeGreaterThan(user.atMs);
    expect(bot.interrupted).toBeUndefined();

    // The utterance went to STT with its pre-roll and the endpoint silence.
    expect(call.stt.framesPerUtterance[0]).toBeGreaterThanOrEqual(600 / FRAME_MS);
    expect(call.stt.languages).toEqual([['en']]);

    // The model saw the system prompt (variables filled in) and the caller's words.
    const request = call.model.requests[0];
    expect(request.messages[0].role).toBe('system');
    expect(request.messages[0].content).toContain('helpful assistant for Acme');
    expect(request.messages[1]).toEqual({ role: 'user', content: 'What are your opening hours?' });
    expect(request.tools.map((t) => t.name)).toEqual(['end_call', 'opt_out']);

    const latency = bot.latency!;
    expect(latency.stt_final_ms).toBeGreaterThanOrEqual(600); // the 700 ms endpoint silence, less rounding
    expect(latency.llm_first_token_ms).toBeGreaterThanOrEqual(latency.stt_final_ms);
    expect(latency.tts_first_byte_ms).toBeGreaterThanOrEqual(latency.llm_first_token_ms);
    expect(latency.first_frame_out_ms).toBeGreaterThanOrEqual(latency.tts_first_byte_ms);
    expect(latency.voice_to_voice_ms).toBe(latency.first_frame_out_ms);
    expect(call.latencies).toEqual([latency]);

    call.hangUp();
    const result = await call.done();
    expect(result.endCallReason).toBeNull();
    expect(call.reporter.hangups).toEqual([]);
    expect(call.stt.closed).toBe(1);
  });

  it('speaks the first sentence before the model has finished its reply', async () => {
    call = new CallHarness({
      sttTexts: ['Tell me about the plan.'],
      model: [
        {
          delayMs: 150,
          deltas: [
            { type: 'text', text: 'The plan is ' },
            { type: 'text', text: 'simple. It ' },
            { type: 'text', text: 'costs ten dollars.' },
          ],
        },
      ],
    }).start();
    call.say(400);
    await call.until(() => call!.tts.requests.length >= 1, 'the first sentence to reach TTS');
    // Only two of the three deltas are out: the first sentence is already being synthesised.
    expect(call.model.yieldedAt.length).toBe(2);
    expect(call.tts.requests[0].text).toBe('The plan is simple.');
    await call.until(() => call!.reporter.lines.length === 2, 'the agent line');
    expect(call.tts.requests.map((r) => r.text)).toEqual(['The plan is simple.', 'It costs ten dollars.']);
    expect(call.reporter.lines[1].content).toBe('The plan is simple. It costs ten dollars.');
    expect(call.commands('mark')).toHaveLength(2);
  });

  it('barge-in: caller speech mid-reply stops synthesis, sends clear and cuts the line to what was played', async () => {
    const long = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen.';
    call = new CallHarness({
      sttTexts: ['Hi.', 'Stop please.'],
      model: [
        { deltas: [{ type: 'text', text: `First sentence here. ${long} And a third sentence.` }] },
        { deltas: [{ type: 'text', text: 'Sure.' }] },
      ],
    });
    // Synthesis runs at about twice real time, so the caller interrupts while the long sentence is still
    // being synthesised.
    call.tts.chunkDelayMs = 25 / call.timeScale;
    call.start();
    call.say(300);
    // Let the first sentence and part of the second play, then talk over the agent.
    await call.until(
      () => call!.commands('mark').length >= 1 && call!.commands('sendAudio').length >= 3 * 10 + 30,
      'the agent to be mid-sentence',
    );
    call.say(400);
    await call.until(() => call!.commands('clear').length === 1, 'clear');
    await call.until(() => call!.reporter.lines.length >= 4, 'the cut line, the new user line and the reply');
    const [, cut, user2, reply] = call.reporter.lines;
    expect(cut.role).toBe('bot');
    expect(cut.interrupted).toBe(true);
    // The first sentence played whole; of the second, the words estimated from the time it played.
    expect(cut.content).toMatch(/^First sentence here\. one\b/);
    expect(cut.content).not.toContain('fifteen');
    expect(cut.content).not.toContain('third');
    expect(user2).toMatchObject({ role: 'user', content: 'Stop please.' });
    expect(reply).toMatchObject({ role: 'bot', content: 'Sure.' });
    expect(reply.latency).toBeDefined();
    // The third sentence's request, started ahead while the second was synthesised, was abandoned with the
    // line, and the model's memory holds only what was heard.
    expect(call.tts.abandoned).toContain('And a third sentence.');
    const history = call.model.requests[1].messages;
    expect(history[2]).toEqual({ role: 'assistant', content: cut.content });
    // Nothing of the cut reply went out after the clear: the next frames are the next reply's.
    const clearAt = call.sent.findIndex((s) => s.command.type === 'clear');
    const nextMark = call.sent.findIndex((s, i) => i > clearAt && s.command.type === 'mark');
    const framesAfterClear = call.sent
      .slice(clearAt + 1, nextMark)
      .filter((s) => s.command.type === 'sendAudio');
    expect(framesAfterClear.length).toBe(TTS_MS_PER_WORD / FRAME_MS);
  });

  it('asks for the next sentence while the current one is synthesised, so its audio is ready in its turn', async () => {
    const long = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen.';
    call = new CallHarness({
      sttTexts: ['Hi.'],
      model: [{ deltas: [{ type: 'text', text: `${long} And the next one.` }] }],
    });
    call.tts.chunkDelayMs = 25 / call.timeScale;
    call.start();
    call.say(300);
    await call.until(() => call!.reporter.lines.length >= 2, 'the reply');
    const texts = call.tts.requests.map((r) => r.text);
    const next = texts.indexOf('And the next one.');
    expect(next).toBe(texts.indexOf(long) + 1);
    // The long sentence is 15 words of 200 ms at 8 kHz: the next request began before all of it was read.
    expect(call.tts.startedAtSamples[next]).toBeLessThan(15 * 0.2 * 8000);
    expect(call.reporter.lines[1]).toMatchObject({ role: 'bot', content: `${long} And the next one.` });
  });

  it('caller speech while the model is still thinking abandons that reply without a clear', async () => {
    call = new CallHarness({
      sttTexts: ['I need help with', 'my order please.'],
      model: [
        { delayMs: 400, deltas: [{ type: 'text', text: 'With what?' }] },
        { deltas: [{ type: 'text', text: 'Let me check your order.' }] },
      ],
    }).start();
    call.say(400);
    await call.until(() => call!.model.requests.length === 1, 'the first model request');
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the answer to both utterances');
    expect(call.model.aborted).toBe(1);
    expect(call.reporter.lines.map((l) => [l.role, l.content])).toEqual([
      ['user', 'I need help with'],
      ['user', 'my order please.'],
      ['bot', 'Let me check your order.'],
    ]);
    expect(call.commands('clear')).toHaveLength(0);
    expect(call.tts.requests.map((r) => r.text)).toEqual(['Let me check your order.']);
    expect(call.model.requests[1].messages.slice(1)).toEqual([
      { role: 'user', content: 'I need help with' },
      { role: 'user', content: 'my order please.' },
    ]);
  });

  it('a multi-sentence reply streamed with pauses between sentences counts no underruns', async () => {
    call = new CallHarness({
      sttTexts: ['Go on.'],
      model: [
        {
          delayMs: 30,
          deltas: [
            { type: 'text', text: 'First. ' },
            { type: 'text', text: 'Second one here. ' },
            { type: 'text', text: 'Third and last.' },
          ],
        },
      ],
    }).start();
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 2, 'the reply');
    call.hangUp();
    const result = await call.done();
    expect(result.pacing).toMatchObject({ framesSent: (7 * TTS_MS_PER_WORD) / FRAME_MS, underruns: 0 });
  });

  it('the model knows what the platform said before the caller spoke (the intro)', async () => {
    call = new CallHarness({
      agent: { introMessage: 'Hi, this is {{company}}.' },
      sttTexts: ['Who is this?'],
    }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    call.say(400);
    await call.until(() => call!.model.requests.length === 1, 'the model request');
    expect(call.model.requests[0].messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Hi, this is Acme.' },
      { role: 'user', content: 'Who is this?' },
    ]);
  });
});
