import { mulawDecode, mulawEncode, sineWave } from '@vap/media';
import { ManualClock } from '@vap/runtime';
import type { SttProvider, SttSession } from '@vap/speech';
import { CallerInput, MAX_UTTERANCE_MS, PRE_ROLL_MS, type Utterance } from './caller-input';
import { MediaTime } from './media-time';
import { ProviderChain } from './provider-chain';
import type { ProviderFailure } from './provider-failure';

const SPEECH = mulawEncode(sineWave(300, 160, 8000, 8000));
const SILENCE = Buffer.alloc(160, 0xff);

/**
 * An STT whose finish() resolves when the spec says so, recording how much audio (in 20 ms frames) was pushed per
 * utterance, and the audio itself (copied, as a session must: the pushed buffer is reused).
 */
class ManualStt implements SttProvider {
  readonly pushed: number[] = [0];
  readonly audio: number[] = [];
  readonly finishing: ((text: string) => void)[] = [];
  /** Rejecters of the pending finish() calls, in order. */
  readonly failing: ((error: Error) => void)[] = [];
  closed = false;

  constructor(readonly name: SttProvider['name'] = 'offline') {}

  async open(): Promise<SttSession> {
    return {
      push: (pcm) => {
        this.pushed[this.pushed.length - 1] += pcm.length / 160;
        this.audio.push(...pcm);
      },
      finish: () =>
        new Promise<string>((resolve, reject) => {
          this.pushed.push(0);
          this.finishing.push(resolve);
          this.failing.push(reject);
        }),
      close: async () => void (this.closed = true),
    };
  }
}

/** The fixed 700 ms endpoint the platform had before adaptive endpointing: these specs are about the rest. */
const FIXED_700_MS = { minSilenceMs: 700, maxSilenceMs: 700 };
describe('CallerInput', () => {
  let time: MediaTime;
  let stt: ManualStt;
  let input: CallerInput;
  const heard: { utterance: Utterance; text: string; provider?: string }[] = [];
  const starts: Utterance[] = [];
  const failures: ProviderFailure[] = [];

  beforeEach(async () => {
    time = new MediaTime(1);
    stt = new ManualStt();
    heard.length = starts.length = failures.length = 0;
    input = new CallerInput({
      stt: new ProviderChain([stt]),
      languages: ['en'],
      time,
      recorder: null,
      providerTimeoutMs: 1000,
      maxUtteranceMs: MAX_UTTERANCE_MS,
      endpointing: FIXED_700_MS,
      onSpeechStart: (u) => starts.push(u),
      onUtterance: (utterance, text) => heard.push({ utterance, text }),
      onFailure: (f) => failures.push(f),
    });
    await input.open();
  });

  afterEach(async () => {
    await input.close();
    time.stop();
  });

  const feed = (frame: Buffer, count: number) => {
    for (let i = 0; i < count; i++) input.audio(frame);
  };

  it('sends the utterance with its pre-roll and the endpoint silence, then finishes it', async () => {
    feed(SILENCE, 20);
    feed(SPEECH, 20);
    expect(starts).toHaveLength(1);
    expect(input.speaking).toBe(true);
    feed(SILENCE, 40);
    expect(input.speaking).toBe(false);
    // Pre-roll (10 frames: 7 silent + the 3 voiced ones the detector needed) + 17 more voiced + 35 silent
    // frames until 700 ms of silence ended the turn.
    expect(PRE_ROLL_MS / 20).toBe(10);
    expect(stt.pushed[0]).toBe(10 + 17 + 35);
    stt.finishing[0]('hello');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.map((h) => h.text)).toEqual(['hello']);
    expect(failures).toEqual([]);
  });

  it('reports the endpoint no sooner after the speech than the silence it waited for, when the audio comes in a burst', async () => {
    // A minute into the call, every frame of the caller's speech and the silence after it arrives at once (media
    // time does not move), as after a stall of the carrier or of this process: the speech ended 700 ms of the
    // caller's audio before the endpoint, whenever its frames arrived.
    const clock = new ManualClock();
    const callTime = new MediaTime(1, clock);
    clock.advance(60_000);
    const burst = new CallerInput({
      stt: new ProviderChain([stt]),
      languages: ['en'],
      time: callTime,
      recorder: null,
      providerTimeoutMs: 1000,
      maxUtteranceMs: MAX_UTTERANCE_MS,
      endpointing: FIXED_700_MS,
      onSpeechStart: (u) => starts.push(u),
      onUtterance: () => undefined,
      onFailure: (f) => failures.push(f),
    });
    await burst.open();
    starts.length = 0;
    for (let i = 0; i < 20; i++) burst.audio(SPEECH);
    for (let i = 0; i < 40; i++) burst.audio(SILENCE);
    expect(burst.speaking).toBe(false);
    const [utterance] = starts;
    expect(utterance.endpointAtMs).toBe(60_000);
    expect(utterance.endpointAtMs! - utterance.endedAtMs!).toBeGreaterThanOrEqual(700);
    await burst.close();
    callTime.stop();
  });

  it('holds the next utterance until STT has finished the previous one, and keeps their order', async () => {
    feed(SPEECH, 10);
    feed(SILENCE, 35);
    feed(SPEECH, 10);
    feed(SILENCE, 35);
    expect(starts).toHaveLength(2);
    expect(stt.finishing).toHaveLength(1);
    expect(stt.pushed).toEqual([45, 0]);
    stt.finishing[0]('first');
    await new Promise((resolve) => setImmediate(resolve));
    // The second utterance (its 3 detection frames as pre-roll, 7 more voiced, 35 silent) went to the session
    // in one go once it was free, and was finished at once.
    expect(stt.pushed).toEqual([45, 45, 0]);
    stt.finishing[1]('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.map((h) => h.text)).toEqual(['first', 'second']);
  });

  it("hands STT the caller's audio as it came, pre-roll first, though each frame is decoded into one buffer", () => {
    // Every frame different: quiet hum below the detector's threshold, then loud tones rising from 200 Hz.
    const quiet = Array.from({ length: 23 }, (_, i) => mulawEncode(sineWave(100 + 10 * i, 160, 8000, 30)));
    const loud = Array.from({ length: 30 }, (_, i) => mulawEncode(sineWave(200 + 20 * i, 160, 8000, 8000)));
    for (const frame of [...quiet, ...loud]) input.audio(frame);
    expect(starts).toHaveLength(1);
    // The pre-roll's 200 ms at speech start (after 3 loud frames): the last 7 quiet frames and those 3 loud ones.
    const expected = mulawDecode(Buffer.concat([...quiet.slice(-7), ...loud]));
    expect(stt.audio).toEqual([...expected]);
  });

  it('cuts an utterance at the cap and transcribes it; the speech goes on as the next utterance', async () => {
    await input.close();
    input = new CallerInput({
      stt: new ProviderChain([stt]),
      languages: ['en'],
      time,
      recorder: null,
      providerTimeoutMs: 1000,
      maxUtteranceMs: 1000,
      endpointing: FIXED_700_MS,
      onSpeechStart: (u) => starts.push(u),
      onUtterance: (utterance, text) => heard.push({ utterance, text }),
      onFailure: (f) => failures.push(f),
    });
    await input.open();
    // 2 s of continuous speech against a 1 s cap (50 frames, the pre-roll included).
    feed(SILENCE, 20);
    feed(SPEECH, 100);
    // Cut twice: after the pre-roll's 10 frames and 40 more, then after 50; the caller is still speaking.
    expect(starts).toHaveLength(3);
    expect(input.speaking).toBe(true);
    expect(stt.pushed).toEqual([50, 0]);
    stt.finishing[0]('part one');
    await new Promise((resolve) => setImmediate(resolve));
    // The second utterance waited for the session and went to it whole: exactly the cap again.
    expect(stt.pushed).toEqual([50, 50, 0]);
    stt.finishing[1]('part two');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.map((h) => h.text)).toEqual(['part one', 'part two']);
    // Back to back: each part ends where the next begins.
    expect(heard[0].utterance.endedAtMs).toBe(heard[1].utterance.startedAtMs);
    expect(heard[1].utterance.endedAtMs).toBe(starts[2].startedAtMs);
    // The third part holds the last 7 voiced frames, and ends at the caller's pause like any utterance.
    feed(SILENCE, 35);
    expect(input.speaking).toBe(false);
    expect(stt.pushed).toEqual([50, 50, 7 + 35, 0]);
  });

  it('ignores speech while not listening, and releases the session on close', async () => {
    input.listening = false;
    feed(SPEECH, 20);
    feed(SILENCE, 40);
    expect(starts).toHaveLength(0);
    await input.close();
    expect(stt.closed).toBe(true);
  });
  it('says the utterance in flight again, from its start, to the next provider when one fails', async () => {
    await input.close();
    const primary = new ManualStt('deepgram');
    const fallback = new ManualStt('openai');
    const fallbacks: string[] = [];
    input = new CallerInput({
      stt: new ProviderChain([primary, fallback]),
      languages: ['en'],
      time,
      recorder: null,
      providerTimeoutMs: 1000,
      maxUtteranceMs: MAX_UTTERANCE_MS,
      endpointing: FIXED_700_MS,
      onSpeechStart: (u) => starts.push(u),
      onUtterance: (utterance, text, _at, provider) => heard.push({ utterance, text, provider }),
      onFailure: (f) => failures.push(f),
      onFallback: (_f, next) => fallbacks.push(next),
    });
    await input.open();
    feed(SILENCE, 20);
    feed(SPEECH, 20);
    feed(SILENCE, 40);
    primary.finishing[0]('first');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.map((h) => [h.text, h.provider])).toEqual([['first', 'deepgram']]);

    // The second utterance: the primary fails once it ended.
    const before = primary.audio.length;
    feed(SPEECH, 30);
    feed(SILENCE, 40);
    const said = primary.audio.slice(before);
    primary.failing[1](new Error('stream lost'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fallbacks).toEqual(['openai']);
    expect(failures).toEqual([]);
    // The fallback heard exactly what the primary had been given of it, and answers it.
    expect(fallback.audio).toEqual(said);
    fallback.finishing[0]('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.map((h) => [h.text, h.provider])).toEqual([
      ['first', 'deepgram'],
      ['second', 'openai'],
    ]);
    expect(primary.closed).toBe(true);

    // The call stays on the fallback; when it fails too, nothing is left: the failure ends the call.
    feed(SPEECH, 20);
    feed(SILENCE, 40);
    expect(primary.audio.length - before).toBe(said.length);
    fallback.failing[1](new Error('down'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(failures).toHaveLength(1);
    expect(fallbacks).toEqual(['openai']);
  });
});
