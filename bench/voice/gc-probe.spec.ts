import { allocationSites, GcRecord, summariseGcWindow } from './gc-probe';

function record(gcType: string, costUs: number, before: [number, number], after: [number, number]): GcRecord {
  return {
    gcType,
    cost: costUs,
    beforeGC: { heapStatistics: { usedHeapSize: before[0], externalMemory: before[1] } },
    afterGC: { heapStatistics: { usedHeapSize: after[0], externalMemory: after[1] } },
  };
}

describe('summariseGcWindow', () => {
  it('adds up what the heap grew by between collections, and counts collections and pauses by kind', () => {
    const window = summariseGcWindow(
      { usedHeapSize: 1_000, externalMemory: 500 },
      [
        record('Scavenge', 1_500, [5_000, 900], [2_000, 600]),
        record('IncrementalMarking', 200, [2_500, 600], [2_500, 600]),
        record('MarkSweepCompact', 12_000, [6_000, 1_600], [1_500, 100]),
        record('Scavenge', 800, [4_500, 100], [1_700, 100]),
      ],
      { usedHeapSize: 2_700, externalMemory: 400 },
      2_000,
    );
    expect(window).toEqual({
      wallMs: 2_000,
      // 4,000 + 500 + 3,500 + 3,000, then 1,000 after the last collection.
      heapAllocatedBytes: 12_000,
      // 400 + 0 + 1,000 + 0, then 300.
      externalAllocatedBytes: 1_700,
      scavenges: 2,
      markCompacts: 1,
      maxScavengeMs: 1.5,
      maxMarkCompactMs: 12,
      totalPauseMs: 14.5,
    });
  });

  it('reads a window without collections as the heap growth over it', () => {
    expect(
      summariseGcWindow(
        { usedHeapSize: 100, externalMemory: 0 },
        [],
        { usedHeapSize: 400, externalMemory: 0 },
        10,
      ),
    ).toMatchObject({ heapAllocatedBytes: 300, scavenges: 0, markCompacts: 0, maxScavengeMs: 0 });
  });
});

describe('allocationSites', () => {
  it('adds up self sizes by function and line, largest first, with paths from the build folder', () => {
    const frame = (functionName: string, url: string, lineNumber: number) => ({
      functionName,
      url,
      lineNumber,
      columnNumber: 0,
    });
    const head = {
      callFrame: frame('(root)', '', -1),
      selfSize: 0,
      children: [
        {
          callFrame: frame('send', 'file:///w/dist/apps/voice/apps/voice/src/media/media-session.js', 10),
          selfSize: 100,
          children: [{ callFrame: frame('', '', -1), selfSize: 300, children: [] }],
        },
        {
          callFrame: frame('send', 'file:///w/dist/apps/voice/apps/voice/src/media/media-session.js', 10),
          selfSize: 50,
          children: [],
        },
      ],
    };
    expect(allocationSites(head)).toEqual([
      { site: '(anonymous) (native:0)', bytes: 300 },
      { site: 'send (apps/voice/apps/voice/src/media/media-session.js:11)', bytes: 150 },
    ]);
  });
});
