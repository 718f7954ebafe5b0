import { histogramDelta, quantileUpperBoundMs, readHistogram } from '../support/prometheus-histogram';
import { sendPacingBetween } from './send-pacing';

const exposition = (counts: number[], underruns: number) => `# HELP voice_frame_send_lateness_seconds x
# TYPE voice_frame_send_lateness_seconds histogram
voice_frame_send_lateness_seconds_bucket{le="0.001"} ${counts[0]}
voice_frame_send_lateness_seconds_bucket{le="0.005"} ${counts[1]}
voice_frame_send_lateness_seconds_bucket{le="+Inf"} ${counts[2]}
voice_frame_send_lateness_seconds_sum 1
voice_frame_send_lateness_seconds_count ${counts[2]}
voice_frame_underruns_total ${underruns}
`;

describe('send pacing from /metrics', () => {
  it('reads cumulative buckets, subtracts the scrape before the round and bounds its quantiles', () => {
    const before = readHistogram(exposition([10, 10, 10], 0), 'voice_frame_send_lateness_seconds');
    const after = readHistogram(exposition([100, 208, 210], 0), 'voice_frame_send_lateness_seconds');
    expect(after.get(Infinity)).toBe(210);
    const delta = histogramDelta(before, after);
    expect([...delta.values()]).toEqual([90, 198, 200]);
    expect(quantileUpperBoundMs(delta, 0.4)).toBe(1);
    expect(quantileUpperBoundMs(delta, 0.99)).toBe(5);
    expect(quantileUpperBoundMs(delta, 1)).toBe(Infinity);
    expect(quantileUpperBoundMs(new Map(), 0.5)).toBeNaN();
  });

  it('sums replicas and counts underruns over the round', () => {
    const snapshot = (counts: number[], underruns: number) => ({
      lateness: readHistogram(exposition(counts, underruns), 'voice_frame_send_lateness_seconds'),
      underruns,
    });
    const pacing = sendPacingBetween(snapshot([0, 0, 0], 3), snapshot([50, 99, 100], 5));
    expect(pacing).toEqual({ frames: 100, latenessP50Ms: 1, latenessP99Ms: 5, underruns: 2 });
  });
});
