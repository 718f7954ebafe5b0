import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FliteEngine, processAlive, sweepStaleFliteDirs } from './flite-engine';

describe('FliteEngine', () => {
  const engine = new FliteEngine(1);
  afterAll(() => engine.close());

  it('synthesizes in a helper process and keeps it for the next job', async () => {
    const clip = await engine.synthesize({ text: 'Hello there.', voice: 'kal', rate: 1 });
    expect(clip.sampleRate).toBe(8000);
    expect(clip.samples.length).toBeGreaterThan(4000);
    const [pid] = engine.helperPids;
    expect(processAlive(pid)).toBe(true);
    await engine.synthesize({ text: 'Again.', voice: 'kal', rate: 1 });
    expect(engine.helperPids).toEqual([pid]);
  });

  it('runs a job again on a new helper when its helper dies, and gives the same speech', async () => {
    const text = 'Your parcel arrives on Monday.';
    const expected = await engine.synthesize({ text, voice: 'slt', rate: 1 });
    const [first] = engine.helperPids;
    const pending = engine.synthesize({ text, voice: 'slt', rate: 1 });
    process.kill(first, 'SIGKILL');
    const clip = await pending;
    expect(clip.samples).toEqual(expected.samples);
    expect(engine.helperPids).toHaveLength(1);
    expect(engine.helperPids[0]).not.toBe(first);
  });

  it('fails a job whose helper dies twice, and recovers for the next one', async () => {
    await engine.synthesize({ text: 'Ready.', voice: 'kal', rate: 1 });
    const pending = engine.synthesize({ text: 'This one is unlucky.', voice: 'kal', rate: 1 });
    const outcome = pending.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    const [first] = engine.helperPids;
    process.kill(first, 'SIGKILL');
    // The retry goes to a new helper once the first one's exit is seen: wait for it, then kill it too.
    while (engine.helperPids[0] === first || engine.helperPids.length === 0)
      await new Promise((r) => setTimeout(r, 1));
    process.kill(engine.helperPids[0], 'SIGKILL');
    expect(await outcome).toMatch(/^flite: flite helper exited \(SIGKILL\)$/);
    const clip = await engine.synthesize({ text: 'Back again.', voice: 'kal', rate: 1 });
    expect(clip.samples.length).toBeGreaterThan(4000);
  });

  it('fails the jobs of a closed engine instead of starting new helpers', async () => {
    const other = new FliteEngine(1);
    await other.synthesize({ text: 'One.', voice: 'kal', rate: 1 });
    const pending = other.synthesize({ text: 'Two, three, four.', voice: 'kal', rate: 1 });
    const outcome = pending.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await other.close();
    expect(await outcome).toMatch(/flite helper exited/);
    expect(other.helperPids).toEqual([]);
  });

  it('starts its whole pool ahead of the first job with warm(), and the jobs then use those helpers', async () => {
    const pool = new FliteEngine(2);
    try {
      await pool.warm();
      const pids = pool.helperPids;
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(processAlive(pid)).toBe(true);
      await Promise.all([
        pool.synthesize({ text: 'First.', voice: 'kal', rate: 1 }),
        pool.synthesize({ text: 'Second.', voice: 'slt', rate: 1 }),
      ]);
      expect(pool.helperPids).toEqual(pids);
    } finally {
      await pool.close();
    }
  });
});

describe('sweepStaleFliteDirs', () => {
  it('removes the WAV directories of processes that are gone once they have been still for an hour', () => {
    const root = mkdtempSync(join(tmpdir(), 'flite-sweep-'));
    try {
      const gone = 99_999_999; // above any pid_max: no such process
      const make = (name: string, ageMs: number) => {
        const path = join(root, name);
        mkdirSync(path);
        writeFileSync(join(path, 'flite-1-0.wav'), 'x');
        const at = new Date(Date.now() - ageMs);
        utimesSync(path, at, at);
        return path;
      };
      const left = make(`vap-flite-${gone}-aaaaaa`, 2 * 3600_000);
      const recent = make(`vap-flite-${gone}-bbbbbb`, 60_000);
      const live = make(`vap-flite-${process.pid}-cccccc`, 2 * 3600_000);
      const other = make('vap-other-dddddd', 2 * 3600_000);
      expect(sweepStaleFliteDirs(root)).toEqual([left]);
      expect([left, recent, live, other].map((p) => existsSync(p))).toEqual([false, true, true, true]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
