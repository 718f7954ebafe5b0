import { waitFor } from '@vap/testing';
import { PeriodicTask } from './periodic-task';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PeriodicTask', () => {
  const log = { error: jest.fn() };

  beforeEach(() => log.error.mockReset());

  it('runs every interval, at start when asked, and never two runs at once', async () => {
    let runs = 0;
    let inFlight = 0;
    let overlapped = false;
    const task = new PeriodicTask({
      label: 'test job',
      intervalMs: 10,
      runAtStart: true,
      log,
      run: async () => {
        runs++;
        inFlight++;
        overlapped ||= inFlight > 1;
        await sleep(35);
        inFlight--;
      },
    });
    task.start();
    expect(runs).toBe(1);
    // Ticks every 10 ms find a 35 ms run still going: they skip, and only later ticks start another.
    await waitFor(async () => (runs >= 3 ? true : undefined), { timeoutMs: 5000, description: 'three runs' });
    await task.stop();
    expect(overlapped).toBe(false);
  });

  describe('spreadFirstRun', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => {
      jest.restoreAllMocks();
      jest.useRealTimers();
    });

    /** A task on a 1 s interval with its first run spread, counting its runs. */
    function spreadTask() {
      const counted = { runs: 0 };
      const task = new PeriodicTask({
        label: 'test job',
        intervalMs: 1000,
        spreadFirstRun: true,
        log,
        run: async () => {
          counted.runs++;
        },
      });
      return { task, counted };
    }

    it('runs first at a random point of the interval, then every interval', async () => {
      jest.spyOn(Math, 'random').mockReturnValue(0.25);
      const { task, counted } = spreadTask();
      task.start();
      await jest.advanceTimersByTimeAsync(249);
      expect(counted.runs).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(counted.runs).toBe(1);
      await jest.advanceTimersByTimeAsync(999);
      expect(counted.runs).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(counted.runs).toBe(2);
      await task.stop();
      await jest.advanceTimersByTimeAsync(5000);
      expect(counted.runs).toBe(2);
    });

    it('stopped before its first run, it never runs', async () => {
      const { task, counted } = spreadTask();
      task.start();
      await task.stop();
      await jest.advanceTimersByTimeAsync(5000);
      expect(counted.runs).toBe(0);
    });
  });

  it('logs a failed run and tries again on the next tick', async () => {
    let runs = 0;
    const task = new PeriodicTask({
      label: 'test job',
      intervalMs: 10,
      log,
      run: async () => {
        runs++;
        throw new Error('down');
      },
    });
    task.start();
    expect(runs).toBe(0);
    await waitFor(async () => (runs >= 2 ? true : undefined), { timeoutMs: 5000, description: 'a retry' });
    await task.stop();
    expect(log.error).toHaveBeenCalledWith('test job failed: down');
  });

  it('waits for the run in progress when stopped, and runs no more after', async () => {
    let finished = false;
    let runs = 0;
    const task = new PeriodicTask({
      label: 'test job',
      intervalMs: 10,
      runAtStart: true,
      log,
      run: async () => {
        runs++;
        await sleep(40);
        finished = true;
      },
    });
    task.start();
    await task.stop();
    expect(finished).toBe(true);
    task.trigger();
    await sleep(30);
    expect(runs).toBe(1);
  });
});
