import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchFigure, FIGURES_FILE_ENV, meetsTarget, reportFigures, targetRatio } from './figures';

const fig = (value: number, target?: BenchFigure['target']): BenchFigure => ({
  bench: 'b',
  figure: 'f',
  value,
  unit: 'ms',
  ...(target ? { target } : {}),
});

describe('bench figures', () => {
  it('checks a figure against its target, and not-measured counts as missed', () => {
    expect(meetsTarget(fig(19, { op: '<', value: 20 }))).toBe(true);
    expect(meetsTarget(fig(20, { op: '<', value: 20 }))).toBe(false);
    expect(meetsTarget(fig(0, { op: '<=', value: 0 }))).toBe(true);
    expect(meetsTarget(fig(3000, { op: '>=', value: 3000 }))).toBe(true);
    expect(meetsTarget(fig(Number.NaN, { op: '<', value: 20 }))).toBe(false);
    expect(meetsTarget(fig(5))).toBeUndefined();
  });

  it('gives a ratio above 1 when better than the target, whichever way the target points', () => {
    expect(targetRatio(fig(10, { op: '<', value: 20 }))).toBe(2);
    expect(targetRatio(fig(40, { op: '<', value: 20 }))).toBe(0.5);
    expect(targetRatio(fig(1500, { op: '>=', value: 3000 }))).toBe(0.5);
    expect(targetRatio(fig(0, { op: '<=', value: 0 }))).toBe(1);
    expect(targetRatio(fig(12, { op: '<=', value: 0 }))).toBe(0);
    expect(targetRatio(fig(7))).toBeUndefined();
  });

  it('appends figures as JSON lines only when the runner asked for them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'figures-'));
    const file = join(dir, 'f.jsonl');
    const before = process.env[FIGURES_FILE_ENV];
    try {
      delete process.env[FIGURES_FILE_ENV];
      reportFigures([fig(1)]);
      process.env[FIGURES_FILE_ENV] = file;
      reportFigures([fig(1), fig(2, { op: '<', value: 3 })]);
      reportFigures([fig(3)]);
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BenchFigure);
      expect(lines.map((l) => l.value)).toEqual([1, 2, 3]);
      expect(lines[1].target).toEqual({ op: '<', value: 3 });
    } finally {
      if (before === undefined) delete process.env[FIGURES_FILE_ENV];
      else process.env[FIGURES_FILE_ENV] = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
