// CPU time and resident memory of another process, read from Linux's /proc as `ps` and `top` do.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessUsage {
  /** User plus system CPU time since the process started, seconds. */
  cpuSeconds: number;
  /** Resident set size, bytes. */
  rssBytes: number;
}

let clockTicks: number | undefined;

/** Kernel clock ticks per second, the unit of /proc/<pid>/stat's CPU times (almost always 100). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** Parses /proc/<pid>/stat: utime and stime are fields 14 and 15, counted after the parenthesised name. */
export function cpuSecondsFromStat(stat: string, ticks: number): number {
  // The command name may hold spaces and parentheses; the fields after its closing ')' are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field n is fields[n - 3].
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

/** Parses /proc/<pid>/status: VmRSS is in kB. */
export function rssBytesFromStatus(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error('no VmRSS line in /proc status');
  return Number(match[1]) * 1024;
}

export function readProcessUsage(pid: number): ProcessUsage {
  return {
    cpuSeconds: cpuSecondsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'), ticksPerSecond()),
    rssBytes: rssBytesFromStatus(readFileSync(`/proc/${pid}/status`, 'utf8')),
  };
}

/** CPU used and the memory peak over a window of sampling. */
export interface UsageWindow {
  cpuSeconds: number;
  wallSeconds: number;
  rssStartBytes: number;
  rssPeakBytes: number;
}

/** Samples a process every `intervalMs` from start() to stop(), keeping the RSS peak. */
export class ProcessSampler {
  private timer: NodeJS.Timeout | undefined;
  private first: ProcessUsage | undefined;
  private startedAt = 0;
  private peak = 0;

  /** Several processes (replicas) are sampled as one: CPU and RSS summed. */
  constructor(
    private readonly pids: number[],
    private readonly intervalMs = 250,
  ) {}

  start(): void {
    this.first = this.read();
    this.peak = this.first.rssBytes;
    this.startedAt = performance.now();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): UsageWindow {
    clearInterval(this.timer);
    if (!this.first) throw new Error('ProcessSampler was not started');
    const last = this.sample();
    return {
      cpuSeconds: last.cpuSeconds - this.first.cpuSeconds,
      wallSeconds: (performance.now() - this.startedAt) / 1000,
      rssStartBytes: this.first.rssBytes,
      rssPeakBytes: this.peak,
    };
  }

  private read(): ProcessUsage {
    const all = this.pids.map(readProcessUsage);
    return {
      cpuSeconds: all.reduce((sum, u) => sum + u.cpuSeconds, 0),
      rssBytes: all.reduce((sum, u) => sum + u.rssBytes, 0),
    };
  }

  private sample(): ProcessUsage {
    const usage = this.read();
    this.peak = Math.max(this.peak, usage.rssBytes);
    return usage;
  }
}
