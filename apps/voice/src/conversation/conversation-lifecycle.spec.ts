import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRAME_MS, levelDbfs, mulawDecode } from '@vap/media';
import { ManualClock } from '@vap/runtime';
import { BlobUrlSigner, LocalBlobStorage } from '@vap/storage';
import { FAREWELL_LIMIT_MS, FAREWELL_START_LIMIT_MS } from './call-lifecycle';
import { WAV_HEADER_BYTES } from './call-recorder';
import { IDLE_REPROMPT_MS, IDLE_STREAM_SLACK_MS } from './idle/idle-controller';
import { CAP_FAREWELL_LEAD_MS } from './limits/call-cap';
import { Phrases } from './phrases';
import { CallHarness } from './testing/conversation-harness';

/** Samples of one channel of a two-channel 16-bit WAV. */
function channel(wav: Buffer, index: 0 | 1): Int16Array {
  const frames = (wav.length - 44) / 4;
  const out = new Int16Array(frames);
  for (let i = 0; i < frames; i++) out[i] = wav.readInt16LE(44 + i * 4 + index * 2);
  return out;
}

/**
 * The max_call_duration_secs specs run the media clock at 5x. Those on a ManualClock (the harness moves it a
 * frame at a time) take no real time for the cap's 35 s. The one that needs a provider timeout, which is on the
 * wall clock, runs in real time: the cap's farewell has CAP_FAREWELL_LEAD_MS of media to play in, at 20x 0.3 s
 * of wall time with 0.1 s to spare, which a worker descheduled on a busy machine eats; at 5x the spare is 0.4 s.
 * Provider delays are set in media time through the scale.
 */
const CAP_TIME_SCALE = 5;
/** The 35 s cap takes 7 s of wall time at 5x; room for a busy machine beyond that. */
const CAP_WALL_TIMEOUT_MS = 20_000;

describe('conversation: lifecycle', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it('user_idle_enabled: reprompts after the silence, then says goodbye and hangs up', async () => {
    call = new CallHarness({
      agent: { userIdleEnabled: true, introMessage: 'Hi there.' },
      timeScale: 50,
    }).start();
    const result = await call.done();
    expect(result.endCallReason).toBe('user_idle_timeout');
    expect(call.reporter.hangups).toEqual(['user_idle_timeout']);
    expect(call.reporter.lines.map((l) => l.content)).toEqual([
      'Hi there.',
      Phrases.idleReprompt,
      Phrases.idleGoodbye,
    ]);
    const [intro, reprompt, goodbye] = call.reporter.lines;
    // Each silence is counted from the end of the agent's last line.
    expect(reprompt.atMs - intro.atMs).toBeGreaterThanOrEqual(IDLE_REPROMPT_MS);
    expect(goodbye.atMs - reprompt.atMs).toBeGreaterThanOrEqual(IDLE_REPROMPT_MS);
  });

  it('user_idle_enabled: a stalled stream is not silence; the reprompt waits for the silence the line carried', async () => {
    call = new CallHarness({
      agent: { userIdleEnabled: true, introMessage: 'Hi there.' },
      timeScale: 50,
    }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    const stallMs = 5000;
    call.stall(stallMs);
    await call.until(() => call!.reporter.lines.length === 2, 'the reprompt');
    const [intro, reprompt] = call.reporter.lines;
    expect(reprompt.content).toBe(Phrases.idleReprompt);
    // Without the caller's audio for 5 s, 8 s of heard silence take at least 12 s (1 s of slack).
    expect(reprompt.atMs - intro.atMs).toBeGreaterThanOrEqual(
      IDLE_REPROMPT_MS + stallMs - IDLE_STREAM_SLACK_MS,
    );
  });

  it('user_idle_enabled: the caller answering the reprompt resets the count', async () => {
    call = new CallHarness({
      agent: { userIdleEnabled: true },
      sttTexts: ['Yes, I am here.'],
      timeScale: 50,
    }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the reprompt');
    call.say(400);
    await call.until(() => call!.reporter.lines.length === 3, 'the answer');
    await call.until(() => call!.reporter.lines.length === 4, 'a new reprompt');
    expect(call.reporter.lines.map((l) => l.content)).toEqual([
      Phrases.idleReprompt,
      'Yes, I am here.',
      'Okay.',
      Phrases.idleReprompt,
    ]);
    expect(call.result).toBeNull();
  });

  it('user_idle_enabled false: silence brings nothing at all', async () => {
    call = new CallHarness({
      agent: { userIdleEnabled: false, introMessage: 'Hi.' },
      timeScale: 50,
    }).start();
    await call.until(() => call!.mediaNow > 2.5 * IDLE_REPROMPT_MS, '20 s of media time');
    expect(call.reporter.lines.map((l) => l.content)).toEqual(['Hi.']);
    expect(call.result).toBeNull();
  });

  it('max_call_duration_secs: a wrap-up line 30 s before the cap, the farewell ending at the cap', async () => {
    call = new CallHarness({
      agent: { maxCallDurationSecs: 35 },
      timeScale: CAP_TIME_SCALE,
      clock: new ManualClock(),
    }).start();
    const result = await call.done(CAP_WALL_TIMEOUT_MS);
    expect(result.endCallReason).toBe('max_call_duration_reached');
    expect(call.reporter.hangups).toEqual(['max_call_duration_reached']);
    const [wrapUp, farewell] = call.reporter.lines;
    expect(wrapUp.content).toBe(Phrases.wrapUp);
    expect(farewell.content).toBe(Phrases.maxDurationFarewell);
    expect(wrapUp.atMs).toBeGreaterThanOrEqual(5000);
    expect(wrapUp.atMs).toBeLessThan(15_000); // generous: timers run late on a loaded machine
    expect(farewell.atMs).toBeGreaterThanOrEqual(35_000 - CAP_FAREWELL_LEAD_MS);
    expect(farewell.atMs).toBeLessThan(35_000);
    // The call lasts the cap: the hang-up comes by then (timers may run a little late on a loaded machine).
    expect(result.mediaSeconds).toBeGreaterThanOrEqual(35 - CAP_FAREWELL_LEAD_MS / 1000);
    expect(result.mediaSeconds).toBeLessThan(36);
  });

  it('max_call_duration_secs: the farewell is synthesised ahead, so a slow provider then does not cut it', async () => {
    call = new CallHarness({
      agent: { maxCallDurationSecs: 35 },
      timeScale: CAP_TIME_SCALE,
      clock: new ManualClock(),
    });
    // 7.5 s of media, more than the farewell's lead (and less than the provider timeout, 2 s of wall time):
    // asked for only at the farewell's moment, it could not play by the cap.
    call.tts.firstChunkDelayMs = (text) => (text === Phrases.maxDurationFarewell ? 7500 / CAP_TIME_SCALE : 0);
    call.start();
    const result = await call.done(CAP_WALL_TIMEOUT_MS);
    expect(result.endCallReason).toBe('max_call_duration_reached');
    const farewell = call.reporter.lines.find((l) => l.content === Phrases.maxDurationFarewell);
    expect(farewell).toBeDefined();
    expect(farewell!.atMs).toBeLessThan(35_000);
    // One request, made with the wrap-up, and played from what it kept.
    expect(call.tts.requests.filter((r) => r.text === Phrases.maxDurationFarewell)).toHaveLength(1);
    expect(call.tts.abandoned).not.toContain(Phrases.maxDurationFarewell);
  });

  it('max_call_duration_secs: the wrap-up is synthesised ahead too, so a slow provider then does not delay it', async () => {
    call = new CallHarness({
      agent: { maxCallDurationSecs: 60 },
      timeScale: CAP_TIME_SCALE,
      clock: new ManualClock(),
    });
    // Asked for only at its moment, the wrap-up would come 6 s of media late.
    call.tts.firstChunkDelayMs = (text) => (text === Phrases.wrapUp ? 6000 / CAP_TIME_SCALE : 0);
    call.start();
    await call.until(() => call!.reporter.lines.length === 1, 'the wrap-up', 10_000);
    const [wrapUp] = call.reporter.lines;
    expect(wrapUp.content).toBe(Phrases.wrapUp);
    // Asked for 10 s ahead of its moment, 30 s before the cap.
    expect(wrapUp.atMs).toBeGreaterThanOrEqual(30_000);
    expect(wrapUp.atMs).toBeLessThan(35_000);
    expect(call.tts.requests.filter((r) => r.text === Phrases.wrapUp)).toHaveLength(1);
    call.hangUp();
  });

  it('max_call_duration_secs: a wrap-up the caller cut before a word of it played opens the next reply', async () => {
    call = new CallHarness({
      agent: { maxCallDurationSecs: 35 },
      sttTexts: ['Sorry, go on.'],
      timeScale: CAP_TIME_SCALE,
    });
    // The wrap-up synthesised ahead is not ready at its moment (it takes the whole provider timeout), so it is
    // asked for again then, and that one is still being synthesised when the caller starts talking (6 s of media).
    let wrapUps = 0;
    call.tts.firstChunkDelayMs = (text) =>
      text === Phrases.wrapUp ? ([2000, 6000 / CAP_TIME_SCALE][wrapUps++] ?? 0) : 0;
    call.start();
    await call.until(
      () => call!.tts.requests.filter((r) => r.text === Phrases.wrapUp).length === 2,
      'the wrap-up asked for at its moment',
    );
    call.say(600);
    const result = await call.done(CAP_WALL_TIMEOUT_MS);
    expect(result.endCallReason).toBe('max_call_duration_reached');
    expect(call.reporter.lines.map((l) => [l.role, l.content])).toEqual([
      ['user', 'Sorry, go on.'],
      ['bot', Phrases.wrapUp],
      ['bot', 'Okay.'],
      ['bot', Phrases.maxDurationFarewell],
    ]);
    // The model is told the wrap-up was said, right after the caller's words.
    const history = call.model.requests[0].messages.slice(-2);
    expect(history).toEqual([
      { role: 'user', content: 'Sorry, go on.' },
      { role: 'assistant', content: Phrases.wrapUp },
    ]);
  });

  it('voicemail: a machine answered, so the voicemail message is left and the call hangs up', async () => {
    call = new CallHarness({
      answeredBy: 'machine',
      agent: { voicemailMessage: 'Please call {{company}} back.', introMessage: 'Hi!' },
      model: [{ deltas: [{ type: 'text', text: 'Should not be used.' }] }],
    }).start();
    const result = await call.done();
    expect(result.endCallReason).toBe('voicemail_detected');
    expect(call.reporter.hangups).toEqual(['voicemail_detected']);
    expect(call.reporter.lines.map((l) => l.content)).toEqual(['Please call Acme back.']);
    expect(call.model.requests).toHaveLength(0);
  });

  it('voicemail detection off: a machine gets the normal intro', async () => {
    call = new CallHarness({
      answeredBy: 'machine',
      agent: { voicemailDetectionEnabled: false, voicemailMessage: 'Call back.', introMessage: 'Hi!' },
    }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    expect(call.reporter.lines[0].content).toBe('Hi!');
    expect(call.result).toBeNull();
  });

  describe('a machine answer that comes after the stream started', () => {
    const LONG_INTRO = 'Hello, this is Maya from Acme, calling about the order you placed with us last week.';

    it('cuts the agent short, leaves the voicemail message and hangs up (voicemail_detected)', async () => {
      call = new CallHarness({
        agent: { voicemailMessage: 'Please call {{company}} back.', introMessage: LONG_INTRO },
      }).start();
      await call.until(() => call!.commands('sendAudio').length > 80, 'the intro playing');
      expect(call.conversation.answeredBy('machine')).toBe(true);
      const result = await call.done();
      expect(result.endCallReason).toBe('voicemail_detected');
      expect(call.reporter.hangups).toEqual(['voicemail_detected']);
      expect(call.commands('clear').length).toBeGreaterThanOrEqual(1);
      const [intro, message] = call.reporter.lines;
      expect(call.reporter.lines).toHaveLength(2);
      expect(intro).toMatchObject({ role: 'bot', interrupted: true });
      expect(LONG_INTRO.startsWith(intro.content)).toBe(true);
      expect(intro.content.length).toBeLessThan(LONG_INTRO.length);
      expect(message).toMatchObject({ role: 'bot', content: 'Please call Acme back.' });
      expect(message.interrupted).toBeUndefined();
    });

    it('before the stream started: the voicemail message instead of the intro', async () => {
      call = new CallHarness({ agent: { voicemailMessage: 'Call back.', introMessage: 'Hi!' } });
      expect(call.conversation.answeredBy('machine')).toBe(true);
      call.start();
      const result = await call.done();
      expect(result.endCallReason).toBe('voicemail_detected');
      expect(call.reporter.lines.map((l) => l.content)).toEqual(['Call back.']);
    });

    it.each([
      ['a human answer', 'human', true],
      ['voicemail detection off', 'machine', false],
    ])('%s changes nothing', async (_what, answeredBy, detection) => {
      call = new CallHarness({
        agent: {
          voicemailDetectionEnabled: detection,
          voicemailMessage: 'Call back.',
          introMessage: 'Hi!',
        },
      }).start();
      await call.until(() => call!.reporter.lines.length === 1, 'the intro');
      expect(call.conversation.answeredBy(answeredBy)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(call.result).toBeNull();
      expect(call.reporter.hangups).toEqual([]);
      expect(call.reporter.lines.map((l) => l.content)).toEqual(['Hi!']);
    });

    it('a call already ending keeps its own end', async () => {
      call = new CallHarness({
        agent: { voicemailMessage: 'Call back.', introMessage: 'Hello there.' },
      }).start();
      await call.until(() => call!.reporter.lines.length === 1, 'the intro');
      expect(call.conversation.end('replica_draining')).toBe(true);
      expect(call.conversation.answeredBy('machine')).toBe(false);
      const result = await call.done();
      expect(result.endCallReason).toBe('replica_draining');
      expect(call.reporter.hangups).toEqual(['replica_draining']);
      expect(call.reporter.lines.map((l) => l.content)).not.toContain('Call back.');
      expect(call.conversation.answeredBy('machine')).toBe(false);
    });
  });

  it.each([
    ['stt', 'stt_provider_failed'],
    ['llm', 'llm_provider_failed'],
  ] as const)('%s provider failure: the agent apologises and hangs up with %s', async (provider, reason) => {
    call = new CallHarness({
      sttTexts: ['Hello?'],
      model: [{ deltas: [], fail: provider === 'llm' }],
    });
    call.stt.fail = provider === 'stt';
    call.start();
    call.say(400);
    const result = await call.done();
    expect(result.endCallReason).toBe(reason);
    expect(call.reporter.hangups).toEqual([reason]);
    expect(call.reporter.lines.at(-1)).toMatchObject({ role: 'bot', content: Phrases.apology });
  });

  it('tts provider failure: the apology is tried once more, then a clean hang-up', async () => {
    call = new CallHarness({
      sttTexts: ['Hello?'],
      model: [{ deltas: [{ type: 'text', text: 'Hi there.' }] }],
    });
    call.tts.failOn = () => true;
    call.start();
    call.say(400);
    const result = await call.done();
    expect(result.endCallReason).toBe('tts_provider_failed');
    expect(call.reporter.hangups).toEqual(['tts_provider_failed']);
    expect(call.tts.requests.map((r) => r.text)).toEqual(['Hi there.', Phrases.apology]);
    expect(call.reporter.lines.map((l) => l.role)).toEqual(['user']);
  });

  it('tts failure mid-reply: the apology is spoken when TTS recovers', async () => {
    call = new CallHarness({
      sttTexts: ['Hello?'],
      model: [{ deltas: [{ type: 'text', text: 'First part. Second part.' }] }],
    });
    call.tts.failOn = (text) => text === 'Second part.';
    call.start();
    call.say(400);
    const result = await call.done();
    expect(result.endCallReason).toBe('tts_provider_failed');
    const bot = call.reporter.lines.filter((l) => l.role === 'bot').map((l) => l.content);
    expect(bot.at(-1)).toBe(Phrases.apology);
  });

  it('a provider that never answers counts as failed after the timeout', async () => {
    call = new CallHarness({ sttTexts: ['Hello?'] });
    call.model.stream = async function* () {
      await new Promise(() => undefined);
      yield { type: 'text' as const, text: 'never reached' };
    };
    call.start();
    call.say(400);
    const result = await call.done(10_000);
    expect(result.endCallReason).toBe('llm_provider_failed');
  });

  it('the caller hangs up mid-sentence: the partial line is reported and done settles with a null reason', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    call = new CallHarness({ agent: { introMessage: `${words}.` } }).start();
    await call.until(() => call!.commands('sendAudio').length >= 50, 'five words played');
    call.hangUp();
    const result = await call.done();
    expect(result.endCallReason).toBeNull();
    expect(call.reporter.hangups).toEqual([]);
    expect(call.reporter.lines).toHaveLength(1);
    const line = call.reporter.lines[0];
    expect(line.interrupted).toBe(true);
    // A second of a sentence still being synthesised (audio is read just ahead of playback) is estimated at the
    // speaking rate: two or three words.
    expect(line.content).toMatch(/^word0 word1( word2)?$/);
    // Nothing is sent once the stream is gone, and no clear goes to a closed stream.
    const sent = call.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(call.sent.length).toBe(sent);
    expect(call.commands('clear')).toHaveLength(0);
  });

  it('a stream the platform cut: no farewell to a dead line, the call hung up with the cut reason', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    call = new CallHarness({ agent: { introMessage: `${words}.` } }).start();
    await call.until(() => call!.commands('sendAudio').length >= 50, 'five words played');
    call.halt();
    call.conversation.onClosed('media_stream_silent');
    const result = await call.done();
    expect(result.endCallReason).toBe('media_stream_silent');
    // The carrier may still hold the call: hung up through it, once.
    expect(call.reporter.hangups).toEqual(['media_stream_silent']);
    expect(call.reporter.lines).toHaveLength(1);
    expect(call.reporter.lines[0].interrupted).toBe(true);
  });

  it('a stream cut while the call was already ending keeps the reason decided, and still hangs up', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hello there.' }, timeScale: 4 }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    expect(call.conversation.end('insufficient_balance')).toBe(true);
    call.halt();
    call.conversation.onClosed('media_stream_unresponsive');
    const result = await call.done();
    expect(result.endCallReason).toBe('insufficient_balance');
    expect(call.reporter.hangups).toEqual(['insufficient_balance']);
  });

  it('a stream cut before it started: the call is hung up with the cut reason', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hello there.' } });
    call.conversation.onClosed('media_stream_protocol_error');
    const result = await call.done();
    expect(result.endCallReason).toBe('media_stream_protocol_error');
    expect(call.reporter.hangups).toEqual(['media_stream_protocol_error']);
  });

  it('terminate(): the call ended elsewhere; model, synthesis, STT and audio stop at once, no farewell, no hang-up', async () => {
    const sentences = Array.from({ length: 8 }, (_, i) => ({
      type: 'text' as const,
      text: `Sentence number ${i} of a long answer. `,
    }));
    call = new CallHarness({
      sttTexts: ['Tell me everything.'],
      model: [{ deltas: sentences, delayMs: 150 }],
    }).start();
    call.say(400);
    await call.until(() => call!.commands('sendAudio').length >= 20, 'the reply playing');
    expect(call.conversation.terminate()).toBe(true);
    expect(call.conversation.terminate()).toBe(false);
    const sent = call.sent.length;
    const result = await call.done();
    expect(result.endCallReason).toBeNull();
    // The model's stream was abandoned mid-answer and nothing more was asked of any provider.
    expect(call.model.aborted).toBe(1);
    expect(call.model.requests).toHaveLength(1);
    expect(call.stt.closed).toBe(1);
    expect(call.tts.requests.map((r) => r.text)).not.toContain(Phrases.endFarewell);
    expect(call.reporter.hangups).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(call.sent.length).toBe(sent);
    expect(call.commands('clear')).toHaveLength(0);
    // The line playing holds what was played, as on a hang-up; nothing was said after.
    const bot = call.reporter.lines.filter((l) => l.role === 'bot');
    expect(bot).toHaveLength(1);
    expect(bot[0]).toMatchObject({ interrupted: true, content: expect.stringMatching(/^Sentence/) });
    expect(call.conversation.end('insufficient_balance')).toBe(false);
  });

  it('terminate() during the farewell of end(): the farewell stops and nothing hangs up the ended call', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hello there.' }, timeScale: 4 }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    expect(call.conversation.end('insufficient_balance')).toBe(true);
    await call.until(
      () => call!.tts.requests.some((r) => r.text === Phrases.endFarewell),
      'the farewell to be synthesised',
    );
    expect(call.conversation.terminate()).toBe(true);
    const result = await call.done();
    expect(result.endCallReason).toBe('insufficient_balance');
    expect(call.reporter.hangups).toEqual([]);
  });

  it('end(reason) from outside: a farewell, then the hang-up with that reason', async () => {
    call = new CallHarness({
      agent: { introMessage: 'Hello there.' },
      // The farewell has FAREWELL_START_LIMIT_MS of media time to start: at 4x that is 1.5 s of real time for 0.9 s of speech
      // and its synthesis, enough on a loaded machine (at 20x a slow synthesis ate the budget).
      timeScale: 4,
    }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    call.conversation.end('drain_deadline');
    const result = await call.done();
    expect(result.endCallReason).toBe('drain_deadline');
    expect(call.reporter.hangups).toEqual(['drain_deadline']);
    expect(call.reporter.lines.at(-1)?.content).toBe(Phrases.endFarewell);
  });

  /**
   * end('insufficient_balance') on a call whose farewell takes `firstChunkMs` of media to synthesize its first
   * chunk (on the manual clock); resolves to the media ms from the end to the hang-up.
   */
  async function endWithSlowFarewell(firstChunkMs: number): Promise<number> {
    call = new CallHarness({
      agent: { introMessage: 'Hello there.' },
      timeScale: 4,
      clock: new ManualClock(),
    });
    call.tts.firstChunkDelayMs = (text) => (text === Phrases.endFarewell ? firstChunkMs / 4 : 0);
    call.start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    const endedAt = call.mediaNow;
    call.conversation.end('insufficient_balance');
    const result = await call.done();
    expect(call.reporter.hangups).toEqual(['insufficient_balance']);
    return result.mediaSeconds * 1000 - endedAt;
  }

  it('end(reason) from outside: a farewell slow to start plays whole once heard, then the hang-up', async () => {
    // 5 s of media to its first chunk, then 2 s of speech (10 words): heard within the start limit, over it in all.
    const took = await endWithSlowFarewell(5000);
    const farewell = call!.reporter.lines.at(-1)!;
    expect(farewell.content).toBe(Phrases.endFarewell);
    expect(farewell.interrupted).toBeUndefined();
    expect(took).toBeGreaterThan(FAREWELL_START_LIMIT_MS);
    expect(took).toBeLessThan(FAREWELL_LIMIT_MS);
  });

  it('end(reason) from outside: a farewell not started within its limit is given up, and the call hangs up', async () => {
    const took = await endWithSlowFarewell(FAREWELL_LIMIT_MS);
    expect(call!.reporter.lines.map((l) => l.content)).toEqual(['Hello there.']);
    expect(call!.tts.abandoned).toContain(Phrases.endFarewell);
    expect(took).toBeGreaterThanOrEqual(FAREWELL_START_LIMIT_MS);
    expect(took).toBeLessThan(FAREWELL_START_LIMIT_MS + 1000);
  });

  it('end(reason) on a call already ending answers false and leaves that end as it was', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hello there.' } }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    expect(call.conversation.end('replica_draining')).toBe(true);
    expect(call.conversation.end('insufficient_balance')).toBe(false);
    const result = await call.done();
    expect(result.endCallReason).toBe('replica_draining');
    expect(call.reporter.hangups).toEqual(['replica_draining']);
    expect(call.conversation.end('insufficient_balance')).toBe(false);
  });

  it('a lost mark still lets the line finish after the grace period', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hi.' }, echoMarks: false, timeScale: 50 }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro line without its mark');
    expect(call.reporter.lines[0].content).toBe('Hi.');
  });

  it('enable_recording: a two-channel WAV with the caller left and the agent right, aligned', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conversation-recording-'));
    const storage = new LocalBlobStorage(dir, new BlobUrlSigner(randomBytes(32)), '/api/v2/uploads');
    const key = 'recordings/partner-1/call-1.wav';
    call = new CallHarness({
      agent: { enableRecording: true, introMessage: 'Hello, how are you?' },
      openRecording: () =>
        storage.openWriter(key, { contentType: 'audio/wav', headerBytes: WAV_HEADER_BYTES }),
      sttTexts: ['Fine thanks.'],
      model: [{ deltas: [{ type: 'text', text: 'Great to hear.' }] }],
      // The caller's leg is the stream's frames and the agent's runs start where it is; the checks below use
      // the media clock's line times, which a slower clock keeps close to the stream on a busy machine.
      timeScale: 5,
    }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    call.say(600);
    await call.until(() => call!.reporter.lines.length === 3, 'the reply');
    call.hangUp();
    const result = await call.done();
    const wav = (await storage.read(key, 10 * 1024 * 1024))!;
    await rm(dir, { recursive: true, force: true });
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(result.recording!.durationSeconds).toBeCloseTo((wav.length - 44) / 4 / 8000, 5);
    const caller = channel(wav, 0);
    const agent = channel(wav, 1);
    const loud = (samples: Int16Array) => levelDbfs(samples) > -30;
    // The caller spoke after the intro ended, and the agent's reply came after the caller.
    const introEnd = Math.round((call.reporter.lines[0].atMs + 4 * 200) * 8);
    const userAt = Math.round(call.reporter.lines[1].atMs * 8);
    const replyAt = Math.round(call.reporter.lines[2].atMs * 8);
    expect(loud(agent.subarray(0, introEnd))).toBe(true);
    expect(loud(caller.subarray(userAt, userAt + 4000))).toBe(true);
    expect(loud(caller.subarray(0, Math.min(userAt, introEnd) - 800))).toBe(false);
    expect(loud(agent.subarray(replyAt, replyAt + 4000))).toBe(true);
    expect(loud(agent.subarray(userAt, userAt + 4000))).toBe(false);
  });

  it('no recording when the agent does not record', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hi.' } }).start();
    await call.until(() => call!.reporter.lines.length === 1, 'the intro');
    call.hangUp();
    expect((await call.done()).recording).toBeNull();
  });

  it('background audio: frames flow through silences with the ambience under them, at the volume', async () => {
    call = new CallHarness({
      agent: {
        backgroundAudioId: '99c94309-570d-4195-9c24-42f9298cb3a5',
        backgroundAudioVolume: 1,
        introMessage: 'Hi.',
      },
      timeScale: 10,
    }).start();
    await call.until(() => call!.commands('sendAudio').length >= 40, 'forty frames');
    call.hangUp();
    const result = await call.done();
    const audio = call.commands('sendAudio');
    // Continuous: after the 10 frames of "Hi." the ambience keeps going on its own.
    expect(result.pacing!.framesSent).toBe(200 / FRAME_MS);
    expect(result.pacing!.silenceFramesSent).toBe(audio.length - 200 / FRAME_MS);
    expect(result.pacing!.silenceFramesSent).toBeGreaterThanOrEqual(30);
    const idleFrame = mulawDecode((audio.at(-1)!.command as { payload: Buffer }).payload);
    expect(levelDbfs(idleFrame)).toBeGreaterThan(-50);
    expect(levelDbfs(idleFrame)).toBeLessThan(-20);
  });

  it('no background audio: nothing is sent between the agent lines', async () => {
    call = new CallHarness({ agent: { introMessage: 'Hi.' } }).start();
    await call.until(() => call!.mediaNow > 1500, 'a second and a half of call');
    call.hangUp();
    await call.done();
    expect(call.commands('sendAudio')).toHaveLength(200 / FRAME_MS);
  });
});
