import { MediaClockBudget } from './media-clock-budget';

const FRAME = 160; // 20 ms of mu-law 8 kHz

describe('MediaClockBudget', () => {
  let clock: number;
  const now = () => clock;

  beforeEach(() => (clock = 1000));

  it('takes a full burst at once, then exactly real time', () => {
    const budget = new MediaClockBudget({ burstMs: 200, timeScale: 1, now });
    // 200 ms of burst: ten frames pass at the same instant, the eleventh does not.
    for (let i = 0; i < 10; i++) expect(budget.take(FRAME)).toBe(true);
    expect(budget.take(FRAME)).toBe(false);
    // 20 ms later one more frame has been earned, and only one.
    clock += 20;
    expect(budget.take(FRAME)).toBe(true);
    expect(budget.take(FRAME)).toBe(false);
  });

  it('accepts a real-time stream indefinitely', () => {
    const budget = new MediaClockBudget({ burstMs: 100, timeScale: 1, now });
    let refused = 0;
    for (let i = 0; i < 10_000; i++) {
      clock += 20;
      if (!budget.take(FRAME)) refused++;
    }
    expect(refused).toBe(0);
  });

  it('drops what a flood sends beyond real time plus the burst', () => {
    const budget = new MediaClockBudget({ burstMs: 2000, timeScale: 1, now });
    let accepted = 0;
    // Ten seconds of frames delivered over one second of wall time.
    for (let i = 0; i < 500; i++) {
      clock += 2;
      if (budget.take(FRAME)) accepted++;
    }
    // 2 s of burst + 1 s of real time = 150 frames (give or take the frame in flight).
    expect(accepted).toBeGreaterThanOrEqual(149);
    expect(accepted).toBeLessThanOrEqual(150);
  });

  it('never saves up more than the burst, however long the stream was quiet', () => {
    const budget = new MediaClockBudget({ burstMs: 100, timeScale: 1, now });
    clock += 60_000;
    let accepted = 0;
    while (budget.take(FRAME)) accepted++;
    expect(accepted).toBe(5);
  });

  it('refuses one oversize chunk whole rather than part of it', () => {
    const budget = new MediaClockBudget({ burstMs: 1000, timeScale: 1, now });
    expect(budget.take(200_000)).toBe(false);
    // The refused chunk cost nothing: the burst is still there.
    expect(budget.take(8000)).toBe(true);
  });

  it('runs on the media clock: a faster MEDIA_TIME_SCALE earns audio that much faster', () => {
    const budget = new MediaClockBudget({ burstMs: 100, timeScale: 8, now });
    // The burst is 100 wall ms, i.e. 800 ms of media at 8x.
    let accepted = 0;
    while (budget.take(FRAME)) accepted++;
    expect(accepted).toBe(40);
    clock += 20;
    for (let i = 0; i < 8; i++) expect(budget.take(FRAME)).toBe(true);
    expect(budget.take(FRAME)).toBe(false);
  });

  it("counts other bytes at the rate given (a stream's messages, a multiple of its audio)", () => {
    const budget = new MediaClockBudget({ burstMs: 100, timeScale: 1, bytesPerMediaMs: 128, now });
    expect(budget.take(12_800)).toBe(true);
    expect(budget.take(1)).toBe(false);
    clock += 10;
    expect(budget.take(1280)).toBe(true);
    expect(budget.take(1)).toBe(false);
  });

  it('refuses settings that would block every frame', () => {
    expect(() => new MediaClockBudget({ burstMs: 0, timeScale: 1 })).toThrow(RangeError);
    expect(() => new MediaClockBudget({ burstMs: 100, timeScale: 0 })).toThrow(RangeError);
  });
});
