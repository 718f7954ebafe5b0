import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { LiveSessionsWatcher, readMetric } from './live-sessions';

const EXPOSITION = [
  '# HELP voice_live_sessions Media sessions open on this replica',
  '# TYPE voice_live_sessions gauge',
  'voice_live_sessions 7',
  'voice_live_sessions_total_opened 99',
  'process_cpu_seconds_total 1.5',
].join('\n');

describe('live sessions', () => {
  it('reads a gauge without labels and ignores metrics that share its prefix', () => {
    expect(readMetric(EXPOSITION, 'voice_live_sessions')).toBe(7);
    expect(readMetric(EXPOSITION, 'voice_absent')).toBeUndefined();
  });

  it('sums a gauge over its label sets', () => {
    const text =
      'voice_live_sessions{carrier="carrier_b"} 3\nvoice_live_sessions{carrier="carrier_a"} 2 1700000000\n';
    expect(readMetric(text, 'voice_live_sessions')).toBe(5);
  });

  it('scrapes /metrics and keeps the peak', async () => {
    let value = 4;
    const server = createServer((_req, res) => res.end(`voice_live_sessions ${value}\n`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const watcher = new LiveSessionsWatcher(`http://127.0.0.1:${port}/metrics`);
      expect(await watcher.scrape()).toBe(4);
      value = 2;
      expect(await watcher.scrape()).toBe(2);
      expect(watcher.peak).toBe(4);
      expect(watcher.latest).toBe(2);
      expect(watcher.misses).toBe(0);
    } finally {
      server.close();
    }
  });
});
