import { TURN_TAKING_PRESETS } from '@vap/messages';
import { FRAME_MS } from '@vap/media';
import { ManualClock } from '@vap/runtime';
import { BARGE_IN_HOLD_MS } from './turn-taking/turn-policy';
import { CallHarness } from './testing/conversation-harness';

const LONG = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen.';
const balanced = TURN_TAKING_PRESETS.balanced;

/**
 * A call whose agent is mid-way through a long reply to the caller's first turn, on a manual clock: what these specs
 * measure is media time, which a busy machine must not stretch.
 */
async function agentMidReply(
  options: ConstructorParameters<typeof CallHarness>[0] = {},
): Promise<CallHarness> {
  const call = new CallHarness({
    clock: new ManualClock(),
    model: [{ deltas: [{ type: 'text', text: `First sentence here. ${LONG} And a third sentence.` }] }],
    ...options,
    sttTexts: ['Tell me everything.', ...(options.sttTexts ?? [])],
  });
  call.stt.partials.push(null);
  call.start();
  call.say(300);
  await call.until(
    () => call.commands('mark').length >= 1 && call.commands('sendAudio').length >= 3 * 10 + 20,
    'the agent to be mid-sentence',
  );
  return call;
}

describe('conversation: turn-taking', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it('a backchannel over the agent neither stops it nor starts a turn, and stays in the transcript', async () => {
    call = await agentMidReply({ sttTexts: ['Yeah.'] });
    call.stt.partials.push({ afterFrames: 16, text: 'yeah' });
    call.say(300);
    await call.until(() => call!.reporter.lines.some((l) => l.content === 'Yeah.'), 'the backchannel line');
    await call.until(() => call!.reporter.lines.filter((l) => l.role === 'bot').length === 1, 'the reply');
    const reply = call.reporter.lines.find((l) => l.role === 'bot')!;
    expect(reply.content).toBe(`First sentence here. ${LONG} And a third sentence.`);
    expect(reply.interrupted).toBeUndefined();
    expect(call.commands('clear')).toHaveLength(0);
    // No turn for the model: it was asked once, for the first turn.
    expect(call.model.requests).toHaveLength(1);
  });

  it('"wait" stops the agent as soon as the word is known, before the caller finishes', async () => {
    call = await agentMidReply({ sttTexts: ['Wait, what about the price?'] });
    call.model.turns.push({ deltas: [{ type: 'text', text: 'It is free.' }] });
    call.stt.partials.push({ afterFrames: 16, text: 'wait' });
    const saidAt = call.mediaNow;
    call.say(1500);
    await call.until(() => call!.commands('clear').length === 1, 'the clear');
    // Cut on the word, well before the hold would have stopped it and long before the caller ended.
    expect(call.mediaNow - saidAt).toBeLessThan(BARGE_IN_HOLD_MS);
    await call.until(() => call!.reporter.lines.some((l) => l.content === 'It is free.'), 'the answer');
    const cut = call.reporter.lines.find((l) => l.role === 'bot')!;
    expect(cut.interrupted).toBe(true);
    expect(cut.content).not.toContain('third');
  });

  it('caller sound with no words stops the agent, which then says the cut sentence again from its start', async () => {
    call = await agentMidReply({ sttTexts: [''] });
    call.stt.partials.push(null);
    call.say(BARGE_IN_HOLD_MS + 400);
    await call.until(() => call!.commands('clear').length === 1, 'the hold (a clear)');
    const clearAt = call.sent.findIndex((s) => s.command.type === 'clear');
    await call.until(() => call!.reporter.lines.some((l) => l.role === 'bot'), 'the reply to finish');
    const reply = call.reporter.lines.find((l) => l.role === 'bot')!;
    // Heard whole in the end: nothing was abandoned, and the line is not marked interrupted.
    expect(reply.content).toBe(`First sentence here. ${LONG} And a third sentence.`);
    expect(reply.interrupted).toBeUndefined();
    expect(call.tts.abandoned).toEqual([]);
    // While held nothing went out; after the release, the second sentence from its start: more frames than the
    // rest of it alone.
    const framesBefore = call.sent.slice(0, clearAt).filter((s) => s.command.type === 'sendAudio').length;
    const framesAfter = call.sent.slice(clearAt).filter((s) => s.command.type === 'sendAudio').length;
    const total = ((3 + 15 + 4) * 200) / FRAME_MS;
    expect(framesBefore + framesAfter).toBeGreaterThan(total);
    expect(framesAfter - (total - framesBefore)).toBeGreaterThanOrEqual(
      framesBefore - (3 * 200) / FRAME_MS - 2,
    );
    expect(call.model.requests).toHaveLength(1);
  });

  it('a pause shorter than the endpoint keeps the caller in one utterance', async () => {
    call = new CallHarness({ clock: new ManualClock(), sttTexts: ['I would like, hmm, a table.'] });
    call.start();
    call.say(300);
    call.pause(300);
    call.say(300);
    await call.until(() => call!.latencies.length === 1, 'the answer');
    // Long enough after the second burst for it to have ended an utterance of its own, had it been one.
    await call.until(() => call!.mediaNow >= 4000, 'the caller done');
    expect(call.stt.framesPerUtterance).toHaveLength(1);
    expect(call.stt.framesPerUtterance[0]).toBeGreaterThanOrEqual((300 + 300 + 300) / FRAME_MS);
    expect(call.reporter.lines.filter((l) => l.role === 'user')).toHaveLength(1);
  });

  it('ends a finished question sooner than an unfinished sentence', async () => {
    call = new CallHarness({
      clock: new ManualClock(),
      sttTexts: ['Can you help me?', 'I want to book a table for'],
      model: [{ deltas: [{ type: 'text', text: 'Yes.' }] }, { deltas: [{ type: 'text', text: 'Go on.' }] }],
    });
    call.stt.partials.push(
      { afterFrames: 10, text: 'Can you help me?' },
      { afterFrames: 10, text: 'I want to book a table for' },
    );
    call.start();
    // After the pre-roll's worth of silence, so each utterance reaches STT with a whole one.
    await call.until(() => call!.mediaNow >= 500, 'half a second of the call');
    call.say(400);
    await call.until(() => call!.latencies.length === 1, 'the first answer');
    await call.until(() => !call!.reporter.lines.every((l) => l.content !== 'Yes.'), 'its line');
    call.say(400);
    await call.until(() => call!.latencies.length === 2, 'the second answer');
    const [complete, incomplete] = call.latencies;
    // In the caller's audio (exact whatever the machine's load): the silence STT got after each utterance is
    // the endpoint's, 250 ms after a finished question and 1500 ms after a trailing "for".
    const [completeFrames, incompleteFrames] = call.stt.framesPerUtterance;
    const apart = (balanced.max_silence_ms - balanced.min_silence_ms) / FRAME_MS;
    expect(incompleteFrames - completeFrames).toBeGreaterThanOrEqual(apart - 2);
    expect(incompleteFrames - completeFrames).toBeLessThanOrEqual(apart + 2);
    // And as reported: where the wait went.
    expect(complete.endpointing_ms).toBeLessThan(incomplete.endpointing_ms - 600);
    expect(complete.voice_to_voice_ms).toBeLessThan(incomplete.voice_to_voice_ms - 600);
    // Latency parts count from the end of speech; nothing is heard before the endpoint.
    for (const latency of call.latencies) {
      expect(latency.first_frame_out_ms).toBeGreaterThanOrEqual(latency.endpointing_ms);
      expect(latency.first_frame_out_ms).toBeGreaterThanOrEqual(latency.stt_final_ms);
    }
  });

  it('an agent in the fast mode, or with explicit bounds, ends turns after its own silences', async () => {
    call = new CallHarness({
      clock: new ManualClock(),
      sttTexts: ['Hello there.'],
      agent: {
        turnTaking: {
          mode: 'patient',
          minSilenceMs: 400,
          maxSilenceMs: null,
          ignoreBackchannels: true,
        },
      },
    });
    call.stt.partials.push({ afterFrames: 10, text: 'Hello there.' });
    call.start();
    await call.until(() => call!.mediaNow >= 500, 'half a second of the call');
    call.say(400);
    await call.until(() => call!.latencies.length === 1, 'the answer');
    // The utterance STT got: its pre-roll (200 ms), the speech after the detector's 60 ms, then the 400 ms of
    // silence that ended it (not the patient mode's 500), counted in the caller's audio.
    const silenceFrames = call.stt.framesPerUtterance[0] - 200 / FRAME_MS - (400 - 60) / FRAME_MS;
    expect(silenceFrames).toBeGreaterThanOrEqual(400 / FRAME_MS - 2);
    expect(silenceFrames).toBeLessThanOrEqual(400 / FRAME_MS + 2);
  });

  it('starts the model on a finished pause and speaks its reply only after the endpoint', async () => {
    call = new CallHarness({
      clock: new ManualClock(),
      sttTexts: ['What time do you open?'],
      model: [{ deltas: [{ type: 'text', text: 'At nine.' }] }],
      agent: {
        turnTaking: {
          mode: 'patient',
          minSilenceMs: null,
          maxSilenceMs: null,
          ignoreBackchannels: true,
        },
      },
    });
    call.stt.partials.push({ afterFrames: 10, text: 'What time do you open?' });
    call.start();
    call.say(400);
    await call.until(() => call!.latencies.length === 1, 'the answer');
    const latency = call.latencies[0];
    // The model started at the pause (before the patient mode's 500 ms endpoint), was asked once, and its reply
    // was adopted when the final transcript said the same words; nothing was synthesised before it.
    expect(call.model.requests).toHaveLength(1);
    expect(call.turnTakingEvents).toEqual(['early_reply_used']);
    expect(latency.first_frame_out_ms).toBeGreaterThanOrEqual(latency.endpointing_ms);
    expect(latency.tts_first_byte_ms).toBeGreaterThanOrEqual(latency.stt_final_ms);
  });

  it('discards, unheard, an early reply the final transcript contradicts', async () => {
    call = new CallHarness({
      clock: new ManualClock(),
      sttTexts: ['Book a table for two.'],
      model: [
        { deltas: [{ type: 'text', text: 'Early answer.' }], delayMs: 0 },
        { deltas: [{ type: 'text', text: 'A table for two, done.' }] },
      ],
    });
    // The words at the pause look finished; the provider's final says more.
    call.stt.partials.push({ afterFrames: 10, text: 'Book a table.' });
    call.start();
    call.say(400);
    await call.until(() => call!.reporter.lines.some((l) => l.role === 'bot'), 'the answer');
    expect(call.model.requests).toHaveLength(2);
    expect(call.model.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'Book a table.' });
    expect(call.model.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: 'Book a table for two.',
    });
    expect(call.tts.requests.map((r) => r.text)).toEqual(['A table for two, done.']);
    expect(call.reporter.lines.map((l) => l.content)).toEqual([
      'Book a table for two.',
      'A table for two, done.',
    ]);
    // The model's memory has the caller's final words only.
    await call.until(() => call!.commands('mark').length >= 1, 'the mark');
  });

  it('discards an early reply when the caller goes on before the endpoint', async () => {
    call = new CallHarness({
      clock: new ManualClock(),
      sttTexts: ['Book a table. For two people.'],
      model: [
        { deltas: [{ type: 'text', text: 'Early answer.' }], delayMs: 5 },
        { deltas: [{ type: 'text', text: 'A table for two, done.' }] },
      ],
    });
    call.stt.partials.push({ afterFrames: 20, text: 'Book a table.' });
    call.start();
    call.say(300);
    call.pause(160);
    call.say(300);
    await call.until(() => call!.reporter.lines.some((l) => l.role === 'bot'), 'the answer');
    expect(call.stt.framesPerUtterance).toHaveLength(1);
    expect(call.tts.requests.map((r) => r.text)).toEqual(['A table for two, done.']);
    // The early request on "Book a table." is not made again at the second pause on the same words; the final
    // transcript's other words discard it and the turn asks once on them.
    expect(call.model.requests.map((r) => r.messages.at(-1))).toEqual([
      { role: 'user', content: 'Book a table.' },
      { role: 'user', content: 'Book a table. For two people.' },
    ]);
    expect(call.turnTakingEvents).toEqual(['early_reply_discarded']);
  });

  it('asks the model once when the caller pauses twice on the same words (a breath between): one turn, one request', async () => {
    call = new CallHarness({
      clock: new ManualClock(),
      sttTexts: ['What time do you open?'],
      model: [
        { deltas: [{ type: 'text', text: 'At nine.' }], delayMs: 5 },
        { deltas: [{ type: 'text', text: 'A second answer.' }], delayMs: 5 },
      ],
    });
    call.stt.partials.push({ afterFrames: 10, text: 'What time do you open?' });
    call.start();
    call.say(300);
    call.pause(160);
    // A sound with no words in it, then the silence that ends the turn.
    call.say(100);
    await call.until(() => call!.reporter.lines.some((l) => l.role === 'bot'), 'the answer');
    expect(call.stt.framesPerUtterance).toHaveLength(1);
    expect(call.model.requests).toHaveLength(1);
    expect(call.turnTakingEvents).toEqual(['early_reply_used']);
    expect(call.tts.requests.map((r) => r.text)).toEqual(['At nine.']);
  });

  it('with ignore_backchannels off, any caller speech over the agent is a barge-in at once', async () => {
    call = await agentMidReply({
      sttTexts: ['Yeah.'],
      agent: {
        turnTaking: {
          mode: 'balanced',
          minSilenceMs: null,
          maxSilenceMs: null,
          ignoreBackchannels: false,
        },
      },
    });
    call.stt.partials.push({ afterFrames: 16, text: 'yeah' });
    const saidAt = call.mediaNow;
    call.say(300);
    await call.until(() => call!.commands('clear').length === 1, 'the clear');
    expect(call.mediaNow - saidAt).toBeLessThan(300);
  });
});
