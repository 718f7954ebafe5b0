// What the voice process allocates and how its garbage collector behaves while a round runs, read over its
// inspector. Node 24's v8.getHeapStatistics() has no running total of bytes allocated, so the probe keeps V8's
// own record of every collection (v8.GCProfiler: heap statistics before and after each, and its pause) and adds
// up what the heap grew by between one collection's end and the next one's start: nothing is freed between
// collections, so that growth is what the process allocated. A sampling heap profile (every allocation site,
// objects that died young included) says where it came from.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InspectorSession } from './inspector-session';

/** One collection as v8.GCProfiler records it (the fields read here). */
export interface GcRecord {
  gcType: string;
  /** The pause, microseconds. */
  cost: number;
  beforeGC: { heapStatistics: { usedHeapSize: number; externalMemory: number } };
  afterGC: { heapStatistics: { usedHeapSize: number; externalMemory: number } };
}

export interface HeapPoint {
  usedHeapSize: number;
  externalMemory: number;
}

export interface GcWindow {
  wallMs: number;
  /** Bytes allocated on V8's heap over the window (objects, strings, typed-array headers). */
  heapAllocatedBytes: number;
  /** Growth of memory held outside the heap (Buffers' and typed arrays' contents), bytes. */
  externalAllocatedBytes: number;
  scavenges: number;
  markCompacts: number;
  maxScavengeMs: number;
  maxMarkCompactMs: number;
  /** Every pause of the window (incremental marking steps included), ms. */
  totalPauseMs: number;
}

/**
 * The window's figures from the collections in it and the heap at its two ends. Runs inside the measured
 * process too (its source is sent over the inspector), so it refers to nothing outside itself.
 */
export function summariseGcWindow(
  start: HeapPoint,
  records: GcRecord[],
  end: HeapPoint,
  wallMs: number,
): GcWindow {
  let heap = 0;
  let external = 0;
  let used = start.usedHeapSize;
  let held = start.externalMemory;
  let scavenges = 0;
  let markCompacts = 0;
  let maxScavengeMs = 0;
  let maxMarkCompactMs = 0;
  let totalPauseMs = 0;
  for (const record of records) {
    heap += Math.max(0, record.beforeGC.heapStatistics.usedHeapSize - used);
    external += Math.max(0, record.beforeGC.heapStatistics.externalMemory - held);
    used = record.afterGC.heapStatistics.usedHeapSize;
    held = record.afterGC.heapStatistics.externalMemory;
    const ms = record.cost / 1000;
    totalPauseMs += ms;
    if (record.gcType === 'Scavenge' || record.gcType === 'MinorMarkSweep') {
      scavenges++;
      maxScavengeMs = Math.max(maxScavengeMs, ms);
    } else if (record.gcType === 'MarkSweepCompact') {
      markCompacts++;
      maxMarkCompactMs = Math.max(maxMarkCompactMs, ms);
    }
  }
  heap += Math.max(0, end.usedHeapSize - used);
  external += Math.max(0, end.externalMemory - held);
  return {
    wallMs,
    heapAllocatedBytes: heap,
    externalAllocatedBytes: external,
    scavenges,
    markCompacts,
    maxScavengeMs,
    maxMarkCompactMs,
    totalPauseMs,
  };
}

/** Installs `globalThis.__benchGcProbe` in the measured process: start() and stop() (the window's GcWindow). */
function probeSource(): string {
  return `(() => {
    const v8 = process.getBuiltinModule('node:v8');
    const summarise = ${summariseGcWindow.toString()};
    const point = () => {
      const s = v8.getHeapStatistics();
      return { usedHeapSize: s.used_heap_size, externalMemory: s.external_memory };
    };
    let window = null;
    globalThis.__benchGcProbe = {
      start() {
        const profiler = new v8.GCProfiler();
        window = { profiler, start: point(), at: performance.now() };
        profiler.start();
        return true;
      },
      stop() {
        const { profiler, start, at } = window;
        const records = profiler.stop().statistics;
        window = null;
        return summarise(start, records, point(), performance.now() - at);
      },
    };
    return true;
  })()`;
}

/** A node of a sampling heap profile (HeapProfiler.SamplingHeapProfileNode). */
interface SampledNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: SampledNode[];
}

export interface AllocationSite {
  /** function (file:line), the file relative to the build's folder. */
  site: string;
  bytes: number;
}

/** Self sizes of a sampling heap profile by allocating function and line, largest first. */
export function allocationSites(head: SampledNode): AllocationSite[] {
  const bySite = new Map<string, number>();
  const visit = (node: SampledNode): void => {
    if (node.selfSize > 0) {
      const { functionName, url, lineNumber } = node.callFrame;
      const file = url.replace(/^file:\/\//, '').replace(/^.*\/dist\//, '');
      const site = `${functionName || '(anonymous)'} (${file || 'native'}:${lineNumber + 1})`;
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) visit(child);
  };
  visit(head);
  return [...bySite.entries()].map(([site, bytes]) => ({ site, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** Sampling interval of the heap profile: on average one sample per this many bytes allocated. */
const SAMPLING_INTERVAL_BYTES = 16 * 1024;

/** Reads one voice process's collections (and, when asked, its allocation sites) over a window. */
export class GcProbe {
  private constructor(
    private readonly inspector: InspectorSession,
    private readonly profileDir: string | undefined,
  ) {}

  /** `profileDir`: where a sampling heap profile of each window is written (costs the process some CPU). */
  static async connect(inspectPort: number, profileDir?: string): Promise<GcProbe> {
    const inspector = await InspectorSession.connect(inspectPort);
    await inspector.evaluate(probeSource());
    return new GcProbe(inspector, profileDir);
  }

  async start(): Promise<void> {
    if (this.profileDir) {
      await this.inspector.call('HeapProfiler.enable');
      await this.inspector.call('HeapProfiler.startSampling', {
        samplingInterval: SAMPLING_INTERVAL_BYTES,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    }
    await this.inspector.evaluate('globalThis.__benchGcProbe.start()');
  }

  /** The window's figures; with a profile directory, also the sampled sites (written there as `name`). */
  async stop(name: string): Promise<{ window: GcWindow; sites?: AllocationSite[] }> {
    const window = await this.inspector.evaluate<GcWindow>('globalThis.__benchGcProbe.stop()');
    if (!this.profileDir) return { window };
    const { profile } = await this.inspector.call<{ profile: { head: SampledNode } }>(
      'HeapProfiler.stopSampling',
    );
    writeFileSync(join(this.profileDir, `${name}.heapprofile`), JSON.stringify(profile));
    return { window, sites: allocationSites(profile.head) };
  }

  close(): void {
    this.inspector.close();
  }
}
