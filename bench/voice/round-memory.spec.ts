import { GcWindow } from './gc-probe';
import { memoryRatios, roundMemory } from './round-memory';

const window = (over: Partial<GcWindow>): GcWindow => ({
  wallMs: 10_000,
  heapAllocatedBytes: 0,
  externalAllocatedBytes: 0,
  scavenges: 0,
  markCompacts: 0,
  maxScavengeMs: 0,
  maxMarkCompactMs: 0,
  totalPauseMs: 0,
  ...over,
});

describe('roundMemory', () => {
  it('sums the replicas per call-second and averages rates and intervals per process', () => {
    const memory = roundMemory(
      [
        window({
          heapAllocatedBytes: 300e6,
          externalAllocatedBytes: 10e6,
          scavenges: 200,
          maxScavengeMs: 2,
          totalPauseMs: 100,
        }),
        window({
          heapAllocatedBytes: 100e6,
          scavenges: 50,
          markCompacts: 1,
          maxMarkCompactMs: 9,
          totalPauseMs: 60,
        }),
      ],
      1_000,
    );
    expect(memory).toMatchObject({
      callSeconds: 1_000,
      heapBytesPerCallSecond: 400_000,
      externalBytesPerCallSecond: 10_000,
      scavengeIntervalMs: 80,
      maxScavengeMs: 2,
      markCompacts: 1,
      maxMarkCompactMs: 9,
      gcPausePercent: 0.8,
    });
    expect(memory.heapMbPerSecond).toBeCloseTo(400e6 / (1024 * 1024) / 20);
  });

  it('gives this build over the baseline, figure by figure', () => {
    const before = roundMemory(
      [window({ heapAllocatedBytes: 400e6, scavenges: 250, maxScavengeMs: 4, totalPauseMs: 80 })],
      1_000,
    );
    const after = roundMemory(
      [window({ heapAllocatedBytes: 200e6, scavenges: 125, maxScavengeMs: 2, totalPauseMs: 40 })],
      1_000,
    );
    expect(memoryRatios(before, after)).toMatchObject({
      heapBytesPerCallSecond: 0.5,
      scavengeInterval: 2,
      maxScavenge: 0.5,
      maxMarkCompact: undefined,
      gcPause: 0.5,
    });
  });
});
