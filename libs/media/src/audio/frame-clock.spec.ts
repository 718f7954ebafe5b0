import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ClockSource, FrameClock, FrameClockOptions, systemClock } from './frame-clock';

/** A full garbage collection, for the retention test (exposed at run time, so no test-runner flag is needed). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** A clock that moves only when the test says; timers fire in due order, each seeing its own lateness. */
class ManualClock implements ClockSource {
  time = 1000;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;
  /** Extra delay added to the next timer fired, to simulate a busy event loop. */
  lateBy: number[] = [];

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, delayMs: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + delayMs, callback, id });
    return id;
  }

  clearTimer(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  get pending(): number {
    return this.timers.length;
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > until) break;
      this.timers.shift();
      this.time = Math.max(this.time, next.at + (this.lateBy.shift() ?? 0));
      next.callback();
    }
    this.time = Math.max(this.time, until);
  }
}

function frame(n: number): Buffer {
  return Buffer.alloc(160, n);
}

function setup(options: Partial<FrameClockOptions> = {}) {
  const clock = new ManualClock();
  /** `first`: the frame's first byte; `whole`: every byte of it is that one (the spec's frames are uniform). */
  const sent: { at: number; first: number; whole: boolean; silence: boolean }[] = [];
  const pacer = new FrameClock({
    clock,
    send: (f, silence) =>
      sent.push({ at: clock.now(), first: f[0], whole: f.every((b) => b === f[0]), silence }),
    ...options,
  });
  return { clock, sent, pacer };
}

describe('FrameClock', () => {
  it('sends one queued frame every 20 ms, in order, starting now', () => {
    const { clock, sent, pacer } = setup();
    for (let i = 1; i <= 5; i++) pacer.enqueue(frame(i));
    pacer.start();
    clock.advance(100);
    expect(sent.slice(0, 5).map((s) => [s.at, s.first, s.silence])).toEqual([
      [1000, 1, false],
      [1020, 2, false],
      [1040, 3, false],
      [1060, 4, false],
      [1080, 5, false],
    ]);
    expect(pacer.framesSent).toBe(5);
  });

  it('sends silence when idle by default, or nothing when asked', () => {
    const a = setup();
    a.pacer.start();
    a.clock.advance(59);
    expect(a.sent.map((s) => [s.first, s.silence])).toEqual([
      [0xff, true],
      [0xff, true],
      [0xff, true],
    ]);
    expect(a.pacer.underruns).toBe(0);

    const b = setup({ idle: 'nothing' });
    b.pacer.start();
    b.clock.advance(100);
    expect(b.sent).toHaveLength(0);
    b.pacer.enqueue(frame(7));
    b.clock.advance(20);
    expect(b.sent.map((s) => s.first)).toEqual([7]);
  });

  it('marks the first frame of each run as resumed: after start(), and after a dormant pause', () => {
    const clock = new ManualClock();
    const runs: boolean[] = [];
    const pacer = new FrameClock({ clock, idle: 'nothing', send: (_f, _s, resumed) => runs.push(resumed) });
    pacer.enqueue(frame(1));
    pacer.enqueue(frame(2));
    pacer.endUtterance();
    pacer.start();
    clock.advance(100);
    pacer.enqueue(frame(3));
    pacer.enqueue(frame(4));
    pacer.endUtterance();
    clock.advance(100);
    expect(runs).toEqual([true, false, true, false]);
  });

  it("with idle 'nothing', stops ticking between utterances and starts the next one at once", () => {
    const { clock, sent, pacer } = setup({ idle: 'nothing' });
    pacer.start();
    clock.advance(7);
    expect(clock.pending).toBe(0);
    pacer.enqueue(frame(1));
    pacer.enqueue(frame(2));
    pacer.endUtterance();
    // Not on the old phase's next slot (1020): now, then every 20 ms from there.
    clock.advance(0);
    clock.advance(20);
    expect(sent.map((s) => [s.first, s.at])).toEqual([
      [1, 1007],
      [2, 1027],
    ]);
    clock.advance(20);
    expect(clock.pending).toBe(0);
    expect(pacer.underruns).toBe(0);
    clock.advance(113);
    pacer.enqueue(frame(3));
    pacer.endUtterance();
    clock.advance(0);
    expect(sent.map((s) => s.at)).toEqual([1007, 1027, 1160]);
    // Queued right after the last frame went out: it still waits a full period (no burst at the carrier).
    clock.advance(5);
    expect(clock.pending).toBe(0);
    pacer.enqueue(frame(4));
    pacer.endUtterance();
    clock.advance(10);
    expect(sent).toHaveLength(3);
    clock.advance(5);
    expect(sent.map((s) => s.at)).toEqual([1007, 1027, 1160, 1180]);
  });

  it('does not drift: late timers do not push later send times back', () => {
    const { clock, sent, pacer } = setup();
    for (let i = 0; i < 50; i++) pacer.enqueue(frame(i));
    // Every timer fires 3 ms late.
    clock.lateBy = Array(60).fill(3);
    pacer.start();
    clock.advance(50 * 20);
    const times = sent.map((s) => s.at);
    // The n-th frame goes at start + n*20 (+3 lateness), never accumulating.
    times.slice(1, 50).forEach((at, i) => expect(at).toBe(1000 + (i + 1) * 20 + 3));
    expect(pacer.jitterP50Ms).toBe(3);
    expect(pacer.jitterP99Ms).toBe(3);
  });

  it('measures jitter percentiles over the sends', () => {
    const { clock, pacer } = setup();
    clock.lateBy = [0, ...Array(98).fill(1), 15];
    pacer.start();
    clock.advance(100 * 20);
    expect(pacer.jitterP50Ms).toBe(1);
    expect(pacer.jitterP99Ms).toBe(1);
    expect(pacer.jitterPercentile(1)).toBe(15);
    expect(pacer.stalls).toBe(0);
  });

  it('skips slots after a stall instead of bursting the backlog', () => {
    const { clock, sent, pacer } = setup();
    for (let i = 1; i <= 10; i++) pacer.enqueue(frame(i));
    clock.lateBy = [0, 0, 65];
    pacer.start();
    clock.advance(200);
    const gaps = sent.slice(1).map((s, i) => s.at - sent[i].at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(15);
    expect(pacer.stalls).toBe(1);
    // Frames are delayed, never dropped.
    expect(sent.filter((s) => !s.silence).map((s) => s.first)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("catching up ('catch-up', a carrier's inbound stream) sends the slots a stall missed at once, in order", () => {
    const { clock, sent, pacer } = setup({ late: 'catch-up' });
    for (let i = 1; i <= 10; i++) pacer.enqueue(frame(i));
    clock.lateBy = [0, 0, 65];
    pacer.start();
    clock.advance(200);
    expect(pacer.stalls).toBe(1);
    // A frame for every 20 ms slot of the clock's time, the stall's included: 200 ms from the start is 11 slots.
    expect(sent).toHaveLength(11);
    expect(sent.filter((s) => !s.silence).map((s) => s.first)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The missed slots went out together, at the late tick: a burst, as a network delivers a delayed run.
    expect(sent.filter((s) => s.at === 1000 + 60 + 65)).toHaveLength(4);
  });

  it('counts underruns only while an utterance is open and unfinished', () => {
    const { clock, sent, pacer } = setup();
    pacer.start();
    pacer.enqueue(frame(1));
    pacer.enqueue(frame(2));
    expect(pacer.talking).toBe(true);
    clock.advance(20); // sends 1
    clock.advance(20); // sends 2
    clock.advance(40); // two ticks starved mid-utterance
    expect(pacer.underruns).toBe(2);
    pacer.enqueue(frame(3));
    pacer.endUtterance();
    clock.advance(20); // sends 3, the utterance's last
    expect(pacer.talking).toBe(false);
    clock.advance(100);
    expect(pacer.underruns).toBe(2);
    expect(sent.filter((s) => !s.silence).map((s) => s.first)).toEqual([1, 2, 3]);
    expect(pacer.playedMs).toBe(60);
  });

  it('continues the utterance when more speech is queued before its last frame went out', () => {
    const { clock, pacer } = setup();
    pacer.enqueue(frame(1));
    pacer.enqueue(frame(2));
    pacer.endUtterance();
    pacer.start(); // sends 1
    pacer.enqueue(frame(3));
    clock.advance(40); // sends 2 and 3
    expect(pacer.talking).toBe(true);
    expect(pacer.playedMs).toBe(60);
    clock.advance(40);
    expect(pacer.underruns).toBe(2);
    pacer.endUtterance();
    expect(pacer.talking).toBe(false);
  });

  it('barge-in: clear() drops the queue and reports how much of the utterance was played', () => {
    const { clock, sent, pacer } = setup();
    for (let i = 1; i <= 50; i++) pacer.enqueue(frame(i));
    pacer.endUtterance();
    pacer.start();
    clock.advance(99); // ticks at 0, 20, 40, 60, 80
    expect(pacer.clear()).toEqual({ droppedFrames: 45, playedMs: 100 });
    expect(pacer.talking).toBe(false);
    expect(pacer.queuedFrames).toBe(0);
    clock.advance(100);
    expect(sent.filter((s) => !s.silence)).toHaveLength(5);
    expect(pacer.underruns).toBe(0);
    // The next utterance counts from zero.
    pacer.enqueue(frame(9));
    clock.advance(20);
    expect(pacer.playedMs).toBe(20);
  });

  it('runs faster than real time with timeScale, reporting media time unchanged', () => {
    const { clock, sent, pacer } = setup({ timeScale: 10 });
    for (let i = 1; i <= 10; i++) pacer.enqueue(frame(i));
    pacer.start();
    clock.advance(19);
    expect(sent.map((s) => s.at - 1000)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(pacer.playedMs).toBe(200);
    expect(() => setup({ timeScale: 0 })).toThrow(RangeError);
  });

  it('stops cleanly and starts only once', () => {
    const { clock, sent, pacer } = setup();
    pacer.start();
    pacer.start();
    clock.advance(40);
    expect(sent).toHaveLength(3);
    pacer.stop();
    expect(clock.pending).toBe(0);
    clock.advance(100);
    expect(sent).toHaveLength(3);
  });

  it('keeps no reference to the frames it queues: it sends copies, in order, across its ring', async () => {
    const { clock, sent, pacer } = setup();
    const refs: WeakRef<Buffer>[] = [];
    // Made in a function of its own, so no variable of the spec holds the last frame.
    const enqueueWatched = (n: number) => {
      const f = frame(n);
      refs.push(new WeakRef(f));
      pacer.enqueue(f);
    };
    // Queued and sent within one utterance that is still going on: the queue is not empty when they leave.
    for (let i = 0; i < 10; i++) enqueueWatched(i);
    pacer.start();
    clock.advance(100);
    expect(sent.filter((s) => !s.silence)).toHaveLength(6);
    // A WeakRef holds its target until the end of the job that made it.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(refs.map((r) => r.deref() !== undefined)).toEqual(Array<boolean>(10).fill(false));
    expect(pacer.queuedFrames).toBe(4);
    // Far more than the ring first holds, queued while it sends, so its content wraps and it grows mid-way.
    for (let i = 10; i < 200; i++) {
      pacer.enqueue(frame(i));
      if (i % 3 === 0) clock.advance(20);
    }
    clock.advance(20 * 200);
    // Then steadily, a frame queued per frame sent: the ring wraps again and again at its size, mid-frame.
    for (let i = 0; i < 100; i++) {
      pacer.enqueue(frame(i));
      clock.advance(20);
    }
    const speech = sent.filter((s) => !s.silence);
    expect(speech.map((s) => s.first)).toEqual([
      ...Array.from({ length: 200 }, (_, i) => i),
      ...Array.from({ length: 100 }, (_, i) => i),
    ]);
    expect(speech.every((s) => s.whole)).toBe(true);
  });

  it('paces on the real clock too', async () => {
    const sent: number[] = [];
    const pacer = new FrameClock({
      clock: systemClock,
      timeScale: 4,
      send: () => sent.push(performance.now()),
    });
    for (let i = 0; i < 20; i++) pacer.enqueue(frame(i));
    const started = performance.now();
    pacer.start();
    // Until five frames went out: on a loaded machine the timers fire late, so the window is what it takes.
    while (sent.length < 5 && performance.now() - started < 5000)
      await new Promise((resolve) => setTimeout(resolve, 5));
    pacer.stop();
    const elapsed = performance.now() - started;
    // A 5 ms period: never more than one frame per elapsed slot, and the frames keep coming. A timer may fire up
    // to a few ms early by performance.now() (libuv schedules from the loop's cached time, staler on a busy
    // machine), which can bring the last frame into the slot before: one frame of allowance, not a burst.
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(sent.length).toBeLessThanOrEqual(Math.floor(elapsed / 5) + 2);
  });
});
