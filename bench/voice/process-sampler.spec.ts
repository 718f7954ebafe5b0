import { cpuSecondsFromStat, ProcessSampler, readProcessUsage, rssBytesFromStatus } from './process-sampler';

describe('process sampler', () => {
  it('reads utime + stime from /proc/<pid>/stat, whatever the command name holds', () => {
    const stat = '4242 (node (voice) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 11 0 1000 0 0';
    expect(cpuSecondsFromStat(stat, 100)).toBe(3);
  });

  it('reads VmRSS in bytes from /proc/<pid>/status', () => {
    expect(rssBytesFromStatus('Name:\tnode\nVmPeak:\t  900 kB\nVmRSS:\t   51200 kB\nThreads: 11\n')).toBe(
      51200 * 1024,
    );
    expect(() => rssBytesFromStatus('Name:\tnode\n')).toThrow('VmRSS');
  });

  it('measures a live process: the CPU it burns in the window, as the process itself counts it', () => {
    const before = readProcessUsage(process.pid);
    expect(before.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    const sampler = new ProcessSampler([process.pid], 10);
    const own = process.cpuUsage();
    sampler.start();
    const until = performance.now() + 300;
    let spin = 0;
    while (performance.now() < until) spin += Math.sqrt(spin + 1);
    const window = sampler.stop();
    const used = process.cpuUsage(own);
    expect(spin).toBeGreaterThan(0);
    // /proc counts in 10 ms ticks; a busy host may give the spin less than its wall time.
    expect(window.cpuSeconds).toBeGreaterThan(0);
    expect(Math.abs(window.cpuSeconds - (used.user + used.system) / 1e6)).toBeLessThan(0.05);
    expect(window.wallSeconds).toBeGreaterThanOrEqual(0.29);
    expect(window.rssPeakBytes).toBeGreaterThanOrEqual(window.rssStartBytes);
  });
});
