import { freePort, ServiceHandle, startService } from '@vap/testing';
import { api, createPartner, e2eEnv } from '../../support';

/**
 * A rolling restart of the agents service under load: extra replicas join the queue group, then are
 * stopped with SIGTERM while requests keep coming. Draining must lose nothing: every request answers 200.
 */
describe('rolling restart under load', () => {
  const env = e2eEnv();
  // The run's own configuration: these replicas serve the other specs' agents and documents requests too.
  const replicaEnv = { ...env.appEnv, SHUTDOWN_TIMEOUT_MS: '10000' };
  const replicas: ServiceHandle[] = [];

  const startReplica = async (label: string) => {
    const handle = await startService('agents', {
      port: await freePort(),
      env: replicaEnv,
      logFile: `${env.logDir}/agents-${label}.log`,
    });
    replicas.push(handle);
    return handle;
  };

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop().catch(() => undefined)));
  });

  it('answers every request while replicas are replaced one by one', async () => {
    const { apiKey } = await createPartner({ name: 'Rolling Co' });
    const first = await startReplica('r1');

    const statuses: number[] = [];
    let running = true;
    const worker = async () => {
      while (running) {
        const res = await api('/api/v2/voice-configurations', { key: apiKey });
        statuses.push(res.status);
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, worker));

    const waitForRequests = async (count: number) => {
      const target = statuses.length + count;
      while (statuses.length < target) await new Promise((r) => setTimeout(r, 20));
    };

    await waitForRequests(100);
    const second = await startReplica('r2');
    await waitForRequests(100);
    const firstExit = await first.stop('SIGTERM');
    await waitForRequests(100);
    await startReplica('r3');
    await waitForRequests(100);
    const secondExit = await second.stop('SIGTERM');
    await waitForRequests(100);
    running = false;
    await load;

    expect(firstExit).toEqual({ code: 0, signal: null });
    expect(secondExit).toEqual({ code: 0, signal: null });
    expect(statuses.length).toBeGreaterThanOrEqual(500);
    const failures = statuses.filter((s) => s !== 200);
    expect({ total: statuses.length, failures }).toEqual({ total: statuses.length, failures: [] });
  }, 120_000);
});
