/**
 * `npm run bench`: every benchmark, one after another, each on infrastructure of its own (its own database,
 * NATS subject prefix and services), then one table of the headline figures against their targets, also written
 * as JSON to bench/results/<date>.json so two runs can be compared.
 *
 * Each benchmark prints its own tables as it goes (`npm run bench:<name>` runs one alone) and hands its
 * headline figures over through BENCH_FIGURES_FILE (bench/support/figures.ts).
 *
 * Settings: BENCH_ONLY (comma-separated names, e.g. `gateway,voice`), BENCH_RESULTS_DIR (bench/results).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceRoot } from '@vap/testing';
import { BenchFigure, FIGURES_FILE_ENV, meetsTarget, targetRatio } from './support/figures';

interface BenchRun {
  name: string;
  /** The benchmark's directory under bench/. */
  script: string;
  /** Its entry point in that directory, `run` unless said. */
  entry?: string;
  args?: string[];
  env?: Record<string, string>;
}

// The targets are set at these sizes; campaigns runs 2,000 contacts so the whole run stays near 10 minutes.
const RUNS: BenchRun[] = [
  { name: 'gateway', script: 'gateway', env: { BENCH_REPLICAS: '1 2' } },
  { name: 'gateway-noisy-tenant', script: 'gateway', entry: 'noisy-tenant' },
  { name: 'callbacks', script: 'callbacks', env: { BENCH_CALLS: '600' } },
  { name: 'callbacks-50', script: 'callbacks', env: { BENCH_CALLS: '600', BENCH_PARTNERS: '50' } },
  {
    name: 'callbacks-2-replicas',
    script: 'callbacks',
    env: { BENCH_CALLS: '600', BENCH_PARTNERS: '50', BENCH_REPLICAS: '2' },
  },
  { name: 'campaigns', script: 'campaigns', env: { BENCH_CONTACTS: '2000', BENCH_CONCURRENCY: '10' } },
  {
    name: 'campaigns-2-replicas',
    script: 'campaigns',
    env: { BENCH_CONTACTS: '2000', BENCH_CONCURRENCY: '10', BENCH_REPLICAS: '2' },
  },
  { name: 'campaign-fleet', script: 'campaigns', entry: 'fleet' },
  { name: 'webhooks-burst', script: 'webhooks', env: { BENCH_EVENTS: '2000', BENCH_ENDPOINTS: '5' } },
  {
    name: 'webhooks-burst-2',
    script: 'webhooks',
    env: { BENCH_EVENTS: '2000', BENCH_ENDPOINTS: '5', BENCH_REPLICAS: '2' },
  },
  {
    name: 'webhooks-paced',
    script: 'webhooks',
    env: { BENCH_EVENTS: '2000', BENCH_ENDPOINTS: '5', BENCH_RATE: '200' },
  },
  { name: 'voice', script: 'voice', args: ['100', '200'], env: { BENCH_REPLICAS: '1 2' } },
  { name: 'voice-browser', script: 'voice', args: ['100', '200'], env: { BENCH_TRANSPORT: 'browser' } },
  { name: 'voice-mixed', script: 'voice', args: ['200'], env: { BENCH_TRANSPORT: 'mixed' } },
  { name: 'voice-turns', script: 'voice', entry: 'turn-taking', args: ['100'] },
  { name: 'voice-tools', script: 'voice', entry: 'tool-calls', args: ['100'] },
  { name: 'voice-handoffs', script: 'voice', entry: 'handoffs', args: ['50'] },
  { name: 'voice-s2s', script: 'voice', entry: 'speech-to-speech' },
  { name: 'llm-first-text', script: '.', entry: 'llm-first-text.bench' },
  { name: 'local-speech', script: 'local-speech' },
];

interface ResultFigure extends BenchFigure {
  met?: boolean;
  ratio?: number;
}

function runBenchmark(root: string, run: BenchRun, figuresFile: string): Promise<number> {
  const main = join(root, 'dist', 'bench', 'bench', run.script, `${run.entry ?? 'run'}.js`);
  if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run bench builds)`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, ...(run.args ?? [])], {
      cwd: root,
      env: { ...process.env, ...run.env, [FIGURES_FILE_ENV]: figuresFile },
      stdio: 'inherit',
    });
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function readFigures(file: string): BenchFigure[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as BenchFigure);
}

/** The commit measured, and whether the working tree had changes on top of it. */
function gitState(root: string): { commit: string | null; uncommittedChanges: boolean | null } {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    return { commit: git('rev-parse', 'HEAD'), uncommittedChanges: git('status', '--porcelain').length > 0 };
  } catch {
    return { commit: null, uncommittedChanges: null };
  }
}

/** bench/results/<date>.json, or <date>-2.json and on when the day already has a run. */
function resultsPath(dir: string, date: string): string {
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? `${date}.json` : `${date}-${n}.json`);
    if (!existsSync(path)) return path;
  }
}

function shown(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) >= 100 ? 0 : 2);
}

async function main(): Promise<void> {
  const root = workspaceRoot();
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only.filter((name) => !RUNS.some((r) => r.name === name || r.script === name));
  if (unknown.length) {
    console.error(
      `BENCH_ONLY: no benchmark named ${unknown.join(', ')} (${RUNS.map((r) => r.name).join(', ')})`,
    );
    process.exit(2);
  }
  const runs = only.length ? RUNS.filter((r) => only.includes(r.name) || only.includes(r.script)) : RUNS;
  const scratch = mkdtempSync(join(tmpdir(), 'vap-bench-'));
  const figures: ResultFigure[] = [];
  const failed: string[] = [];
  const started = new Date();
  try {
    for (const run of runs) {
      console.log(`\n=== ${run.name} ===`);
      const file = join(scratch, `${run.name}.jsonl`);
      const code = await runBenchmark(root, run, file);
      if (code !== 0) failed.push(run.name);
      for (const f of readFigures(file)) figures.push({ ...f, met: meetsTarget(f), ratio: targetRatio(f) });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  console.log('\n=== all benchmarks ===');
  console.table(
    figures.map((f) => ({
      benchmark: f.bench,
      figure: f.figure,
      value: `${shown(f.value)} ${f.unit}`,
      target: f.target ? `${f.target.op} ${f.target.value} ${f.unit}` : '',
      ratio: f.ratio === undefined ? '' : shown(f.ratio),
      met: f.met === undefined ? '' : f.met ? 'yes' : 'NO',
    })),
  );
  const dir = process.env.BENCH_RESULTS_DIR ?? join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const path = resultsPath(dir, started.toISOString().slice(0, 10));
  const results = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    ...gitState(root),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    failed,
    figures,
  };
  writeFileSync(path, JSON.stringify(results, null, 2) + '\n');
  const missed = figures.filter((f) => f.met === false).length;
  const withTarget = figures.filter((f) => f.met !== undefined).length;
  console.log(
    `targets met: ${withTarget - missed} of ${withTarget}; ratio > 1 is better than the target. Written to ${path}`,
  );
  if (failed.length) {
    console.error(`benchmarks that failed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
