import { quantileUpperBoundMs, readHistogram } from './prometheus-histogram';

describe('readHistogram', () => {
  const exposition = [
    '# TYPE vap_check_seconds histogram',
    'vap_check_seconds_bucket{le="0.001",result="allowed"} 90',
    'vap_check_seconds_bucket{le="0.005",result="allowed"} 100',
    'vap_check_seconds_bucket{le="+Inf",result="allowed"} 100',
    'vap_check_seconds_bucket{le="0.001",result="stopped"} 0',
    'vap_check_seconds_bucket{le="0.005",result="stopped"} 10',
    'vap_check_seconds_bucket{le="+Inf",result="stopped"} 10',
    'vap_check_seconds_count{result="allowed"} 100',
  ].join('\n');

  it('sums every series, or reads only those with a label', () => {
    expect(readHistogram(exposition, 'vap_check_seconds')).toEqual(
      new Map([
        [0.001, 90],
        [0.005, 110],
        [Infinity, 110],
      ]),
    );
    const stopped = readHistogram(exposition, 'vap_check_seconds', { name: 'result', value: 'stopped' });
    expect(stopped.get(Infinity)).toBe(10);
    expect(quantileUpperBoundMs(stopped, 0.5)).toBe(5);
    const allowed = readHistogram(exposition, 'vap_check_seconds', { name: 'result', value: 'allowed' });
    expect(quantileUpperBoundMs(allowed, 0.9)).toBe(1);
  });
});
