// Pins processes to cores (taskset) so a benchmark's figures are the measured process's own: on a 2-core
// machine the voice service gets one core and the load generator (the callers, the fakes) the other.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Whether pinning applies: two cores or more, taskset installed, and not turned off (BENCH_PIN=0). Read the
 * core count before pinning this process (it then follows its affinity).
 */
export function pinningWanted(cores = availableParallelism()): boolean {
  if (process.env.BENCH_PIN === '0' || cores < 2) return false;
  return spawnSync('taskset', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Pins every thread of `pid` (V8's collector threads too) to `cpu`; false, with a warning, when it fails. */
export function pinToCore(cpu: number, pid: number): boolean {
  const res = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { encoding: 'utf8' });
  if (res.status === 0) return true;
  console.warn(`taskset ${cpu} ${pid} failed: ${res.stderr || res.error?.message}`);
  return false;
}

/** A process and every process it started (the voice service's helper processes too). */
export function processTree(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean);
      children.push(...list.map(Number));
    }
  } catch {
    // The process ended meanwhile: nothing to pin.
  }
  return [pid, ...children.flatMap(processTree)];
}
