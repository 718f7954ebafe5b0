import { handoffFigures, handoffLatency } from './handoff-latency';
import { meetsTarget } from '../support/figures';

describe('handoffLatency', () => {
  it("takes each call's first turn as the handoff and its extra over the mean of the call's plain turns", () => {
    const report = handoffLatency(
      [
        [900, 500, 600], // extra 350
        [800, 500, 500], // extra 300
        [1_400, 700, 700], // extra 700
      ],
      300,
    );
    expect(report).toMatchObject({
      measured: 3,
      handoffTurnP50Ms: 900,
      plainTurnP50Ms: 500,
      extraP50Ms: 350,
      extraP99Ms: 700,
    });
    expect(report.extraRoundsP50).toBeCloseTo(350 / 300);
    expect(report.extraRoundsP99).toBeCloseTo(700 / 300);
  });

  it('leaves out calls without a plain turn to compare with', () => {
    const report = handoffLatency([[900], [], [700, 400]], 300);
    expect(report.measured).toBe(1);
    expect(report.extraP50Ms).toBe(300);
  });

  it('holds the p50 in rounds to one model round and a tenth', () => {
    const within = handoffFigures(handoffLatency([[830, 500]], 300), 'b');
    const over = handoffFigures(handoffLatency([[840, 500]], 300), 'b');
    const rounds = (figures: typeof within) =>
      figures.find((f) => f.figure === 'handoff extra p50 in model rounds')!;
    expect(meetsTarget(rounds(within))).toBe(true);
    expect(meetsTarget(rounds(over))).toBe(false);
  });
});
