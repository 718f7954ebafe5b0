// A round's allocation and garbage-collection figures of the voice process(es), per call-second of media, so
// rounds of different sizes and builds compare.
import { GcWindow } from './gc-probe';

export interface RoundMemory {
  callSeconds: number;
  heapAllocatedBytes: number;
  /** V8 heap bytes allocated per second of call media. */
  heapBytesPerCallSecond: number;
  /** Buffer contents held outside the heap, allocated per second of call media. */
  externalBytesPerCallSecond: number;
  /** Allocation rate of one process, MB/s of wall time (replicas averaged). */
  heapMbPerSecond: number;
  /** Wall time between two scavenges of one process, ms (undefined without any). */
  scavengeIntervalMs: number | undefined;
  maxScavengeMs: number;
  markCompacts: number;
  maxMarkCompactMs: number;
  /** Share of wall time paused for garbage collection, % (replicas averaged). */
  gcPausePercent: number;
}

const MB = 1024 * 1024;

/** Sums the replicas' windows of one round; `callSeconds` is the media seconds of the round's calls. */
export function roundMemory(windows: readonly GcWindow[], callSeconds: number): RoundMemory {
  const sum = (pick: (w: GcWindow) => number) => windows.reduce((total, w) => total + pick(w), 0);
  const wallMs = sum((w) => w.wallMs);
  const heap = sum((w) => w.heapAllocatedBytes);
  const scavenges = sum((w) => w.scavenges);
  return {
    callSeconds,
    heapAllocatedBytes: heap,
    heapBytesPerCallSecond: callSeconds > 0 ? heap / callSeconds : Number.NaN,
    externalBytesPerCallSecond:
      callSeconds > 0 ? sum((w) => w.externalAllocatedBytes) / callSeconds : Number.NaN,
    heapMbPerSecond: wallMs > 0 ? heap / MB / (wallMs / 1000) : Number.NaN,
    scavengeIntervalMs: scavenges > 0 ? wallMs / scavenges : undefined,
    maxScavengeMs: Math.max(0, ...windows.map((w) => w.maxScavengeMs)),
    markCompacts: sum((w) => w.markCompacts),
    maxMarkCompactMs: Math.max(0, ...windows.map((w) => w.maxMarkCompactMs)),
    gcPausePercent: wallMs > 0 ? (100 * sum((w) => w.totalPauseMs)) / wallMs : Number.NaN,
  };
}

export interface MemoryRatios {
  /** This build's figure over the baseline's (below 1: it allocates less). */
  heapBytesPerCallSecond: number;
  externalBytesPerCallSecond: number;
  /** This build's scavenge interval over the baseline's (above 1: it scavenges less often). */
  scavengeInterval: number | undefined;
  maxScavenge: number;
  maxMarkCompact: number | undefined;
  gcPause: number;
}

/** `after` over `before`, figure by figure. */
export function memoryRatios(before: RoundMemory, after: RoundMemory): MemoryRatios {
  const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
  return {
    heapBytesPerCallSecond: ratio(after.heapBytesPerCallSecond, before.heapBytesPerCallSecond),
    externalBytesPerCallSecond: ratio(after.externalBytesPerCallSecond, before.externalBytesPerCallSecond),
    scavengeInterval:
      after.scavengeIntervalMs === undefined || before.scavengeIntervalMs === undefined
        ? undefined
        : ratio(after.scavengeIntervalMs, before.scavengeIntervalMs),
    maxScavenge: ratio(after.maxScavengeMs, before.maxScavengeMs),
    maxMarkCompact:
      before.markCompacts > 0 && after.markCompacts > 0
        ? ratio(after.maxMarkCompactMs, before.maxMarkCompactMs)
        : undefined,
    gcPause: ratio(after.gcPausePercent, before.gcPausePercent),
  };
}
