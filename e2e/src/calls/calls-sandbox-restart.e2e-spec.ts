// The sandbox carrier restarted (killed and started again) while it carries calls: a platform of its own (own
// database and NATS subject prefix). The restarted simulator no longer knows the calls (404) and their media
// streams and callbacks have stopped; the calls service notices through the carrier's REST API and ends each
// call within seconds: an answered one completed and billed once for its answered time, a ringing one failed,
// end_call_reason carrier_call_lost, slots freed, post-call processing and its charge as for any call.
import { join } from 'node:path';
import { Platform, ServiceHandle, startService, waitFor } from '@vap/testing';
import { api, e2eEnv, OwnPlatform, startOwnPlatform } from '../../support';
import { callee, partnerWithListeningAgent } from './call-fixtures';

const LIMIT = 2;
const OPENING_BALANCE_INR = 500;

describe('calls of a sandbox carrier that restarts', () => {
  let own: OwnPlatform;
  let platform: Platform;
  let gateway: string;
  let restarted: ServiceHandle | undefined;

  beforeAll(async () => {
    own = await startOwnPlatform({
      name: 'sandbox_restart',
      env: {
        CARRIER_SILENCE_CHECK_MS: '500',
        CARRIER_FINAL_STATUS_WAIT_SECS: '2',
        CARRIER_RING_CHECK_SECS: '3',
        CARRIER_CHECK_RETRY_SECS: '2',
        // Slow call setup, so that a call is seen ringing before the restart.
        SANDBOX_STEP_MS: '2500',
      },
    });
    platform = own.platform;
    gateway = platform.gatewayUrl;
  }, 120_000);

  afterAll(async () => {
    await restarted?.stop().catch(() => undefined);
    await own?.stop();
  });

  /** Kills the sandbox carrier (no chance to end its calls) and starts it again on its port, knowing nothing. */
  async function restartSandbox(label: string): Promise<void> {
    const current = restarted ?? platform.services['sandbox-carrier']!;
    const killed = await current.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const env = e2eEnv();
    restarted = await startService('sandbox-carrier', {
      port: current.port,
      env: own.platform.env,
      logFile: env.logDir ? join(env.logDir, 'sandbox_restart', `sandbox-carrier-${label}.log`) : undefined,
    });
  }

  it('ends answered calls within seconds, completed and billed once for their answered time', async () => {
    const p = await partnerWithListeningAgent(gateway, {
      name: 'Sandbox Restart',
      balance_inr: OPENING_BALANCE_INR,
      concurrency_limit: LIMIT,
    });
    const getCall = async (id: string) =>
      (await api(`/calls/${id}`, { key: p.key, baseUrl: gateway })).body.data;
    const balance = async () =>
      (await api('/billing/balance', { key: p.key, baseUrl: gateway })).body.data.balance_inr as number;
    const start = () =>
      api('/calls/start', {
        method: 'POST',
        key: p.key,
        baseUrl: gateway,
        // 07: the callee talks until the agent's cap of an hour: only the restart ends these calls.
        body: { agent_id: p.agentId, to_number: callee('07') },
      });

    const ids: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await start();
      expect(res.status).toBe(200);
      ids.push(res.body.data.call_id);
    }
    for (const id of ids) {
      // In conversation: answered, and the agent's intro is in the transcript.
      await waitFor(
        async () => {
          const c = await getCall(id);
          return c.status === 'in_progress' && c.session.transcript.length > 0 ? true : undefined;
        },
        { timeoutMs: 30_000, description: `call ${id} to be in conversation` },
      );
    }
    expect((await start()).status).toBe(429);

    await restartSandbox('answered');
    const restartedAt = Date.now();
    for (const id of ids) {
      const call = await waitFor(
        async () => {
          const c = await getCall(id);
          return c.status !== 'in_progress' ? c : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 200, description: `call ${id} to end once the sandbox lost it` },
      );
      expect(call).toMatchObject({
        status: 'completed',
        end_call_reason: 'carrier_call_lost',
        hangup_source: 'system',
        hangup_cause: 'CARRIER_CALL_LOST',
      });
      expect(call.duration_seconds).toBeGreaterThan(0);
    }
    // Seconds, not the stale sweep's max duration plus grace.
    expect(Date.now() - restartedAt).toBeLessThan(20_000);

    // Post-call processing ran as for any call, and each call is charged once: the balance drops by exactly
    // their credits, and stays there.
    const credits = await waitFor(
      async () => {
        const calls = await Promise.all(ids.map(getCall));
        return calls.every((c) => c.session.processing_complete)
          ? calls.map((c) => c.session.credits_used as number)
          : undefined;
      },
      { timeoutMs: 30_000, description: 'post-call processing of the ended calls' },
    );
    for (const c of credits) expect(c).toBeGreaterThan(0);
    const expected = Math.round((OPENING_BALANCE_INR - credits.reduce((a, b) => a + b, 0)) * 100) / 100;
    await waitFor(async () => ((await balance()) === expected ? true : undefined), {
      timeoutMs: 15_000,
      description: 'the balance to show the charges',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await balance()).toBe(expected);

    // The slots are free, and the restarted sandbox carries new calls.
    const next = await start();
    expect(next.status).toBe(200);
    await waitFor(
      async () => ((await getCall(next.body.data.call_id)).status === 'in_progress' ? true : undefined),
      { timeoutMs: 30_000, description: 'a new call on the restarted sandbox to be answered' },
    );
  }, 180_000);

  it('fails a ringing call the restarted sandbox no longer knows, at no charge', async () => {
    const p = await partnerWithListeningAgent(gateway, { name: 'Sandbox Restart Ringing', balance_inr: 100 });
    const getCall = async (id: string) =>
      (await api(`/calls/${id}`, { key: p.key, baseUrl: gateway })).body.data;
    // 01: nobody answers; the call rings until the carrier gives up.
    const res = await api('/calls/start', {
      method: 'POST',
      key: p.key,
      baseUrl: gateway,
      body: { agent_id: p.agentId, to_number: callee('01') },
    });
    expect(res.status).toBe(200);
    const id = res.body.data.call_id as string;
    await waitFor(async () => ((await getCall(id)).status === 'ringing' ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 100,
      description: `call ${id} to ring`,
    });

    await restartSandbox('ringing');
    const call = await waitFor(
      async () => {
        const c = await getCall(id);
        return c.status !== 'ringing' ? c : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200, description: `call ${id} to end once the sandbox lost it` },
    );
    expect(call).toMatchObject({
      status: 'failed',
      end_call_reason: 'carrier_call_lost',
      hangup_cause: 'CARRIER_CALL_LOST',
      duration_seconds: 0,
    });
  }, 120_000);
});
