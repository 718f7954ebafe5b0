// A calls replica killed with SIGKILL while its partners' sandbox calls are in conversation: a platform of its
// own (own database and NATS subject prefix). No calls replica owns a call (the carrier, here the sandbox
// carrier app, carries it; any replica takes its callbacks and voice reports), so the calls carry on through
// the surviving replica and complete as usual, billed once, their slots freed.
// The next replica is started before the calls are placed, so the kill follows their answer at once: a replica
// that takes long to boot on a busy machine must not eat the calls' time to their cap. The two replicas share
// the placements (one queue group), so the killed one placed some of the calls and held their callbacks.
import { join } from 'node:path';
import { freePort, Platform, ServiceHandle, startService, waitFor } from '@vap/testing';
import { api, e2eEnv, OwnPlatform, startOwnPlatform } from '../../support';
import { callee, partnerWithListeningAgent } from './call-fixtures';

const LIMIT = 3;
const OPENING_BALANCE_INR = 500;
/** The agent's cap: the sandbox callee of `07` talks until the carrier cuts the call at it. */
const CAP_SECS = 60;
/** Ends of calls that something other than the conversation (and its cap) decided. */
const INTERRUPTED = ['platform_interrupted', 'voice_replica_lost', 'carrier_call_lost', 'stale_call_timeout'];

interface Partner {
  key: string;
  agentId: string;
  callIds: string[];
}

describe('calls of a calls replica that dies', () => {
  let own: OwnPlatform;
  let platform: Platform;
  const replicas: ServiceHandle[] = [];
  let gateway: string;

  beforeAll(async () => {
    own = await startOwnPlatform({ name: 'crash' });
    platform = own.platform;
    gateway = platform.gatewayUrl;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop().catch(() => undefined)));
    await own?.stop();
  });

  const createPartner = async (name: string): Promise<Partner> => ({
    ...(await partnerWithListeningAgent(
      gateway,
      { name, balance_inr: OPENING_BALANCE_INR, concurrency_limit: LIMIT },
      { max_call_duration_secs: CAP_SECS },
    )),
    callIds: [],
  });

  const start = (p: Partner) =>
    api('/calls/start', {
      method: 'POST',
      key: p.key,
      baseUrl: gateway,
      // 07: the callee talks until the agent's cap; these calls outlive the replica.
      body: { agent_id: p.agentId, to_number: callee('07') },
    });
  const getCall = async (p: Partner, id: string) =>
    (await api(`/calls/${id}`, { key: p.key, baseUrl: gateway })).body.data;
  const balanceOf = async (p: Partner) =>
    (await api('/billing/balance', { key: p.key, baseUrl: gateway })).body.data.balance_inr as number;

  /** Another calls replica on the platform's database and subjects. */
  async function startReplica(label: string): Promise<ServiceHandle> {
    const env = e2eEnv();
    const handle = await startService('calls', {
      port: await freePort(),
      // What the platform's own calls replica got: its database, subjects, public URLs and settings.
      env: own.platform.env,
      logFile: env.logDir ? join(env.logDir, 'crash', `calls-${label}.log`) : undefined,
    });
    replicas.push(handle);
    return handle;
  }

  async function startFull(p: Partner): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await start(p);
      expect(res.status).toBe(200);
      ids.push(res.body.data.call_id);
    }
    for (const id of ids) {
      await waitFor(async () => ((await getCall(p, id)).status === 'in_progress' ? true : undefined), {
        timeoutMs: 20_000,
        description: `call ${id} to be answered`,
      });
    }
    return ids;
  }

  /**
   * Every call runs to its cap and completes as the carrier reports it, after `since` (the replica's end):
   * nothing cut it short.
   */
  async function expectCompleted(p: Partner, ids: string[], since: number): Promise<void> {
    for (const id of ids) {
      const call = await waitFor(
        async () => {
          const c = await getCall(p, id);
          return c.status !== 'in_progress' ? c : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 250, description: `call ${id} to complete` },
      );
      expect(call.status).toBe('completed');
      expect(INTERRUPTED).not.toContain(call.end_call_reason);
      expect(new Date(call.ended_at).getTime()).toBeGreaterThan(since);
      expect(call.duration_seconds).toBeGreaterThan(0);
      expect(call.session.transcript.length).toBeGreaterThan(0);
    }
  }

  /** Each call is charged once, for the time it ran: the balance drops by exactly their credits. */
  async function expectChargedOnce(p: Partner, ids: string[], before: number): Promise<void> {
    const charges = await waitFor(
      async () => {
        const calls = await Promise.all(ids.map((id) => getCall(p, id)));
        return calls.every((c) => c.session.processing_complete)
          ? calls.map((c) => c.session.credits_used as number)
          : undefined;
      },
      { timeoutMs: 20_000, description: 'post-call processing of the ended calls' },
    );
    for (const credits of charges) expect(credits).toBeGreaterThan(0);
    const expected = Math.round((before - charges.reduce((a, b) => a + b, 0)) * 100) / 100;
    await waitFor(async () => ((await balanceOf(p)) === expected ? true : undefined), {
      timeoutMs: 15_000,
      description: `the balance to show the ${charges.length} charges`,
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await balanceOf(p)).toBe(expected);
  }

  it('carries the calls of a killed replica on through a surviving one, to their usual end, billed once', async () => {
    const partners = [await createPartner('Crash One'), await createPartner('Crash Two')];
    await startReplica('second');
    for (const p of partners) p.callIds = await startFull(p);

    const killed = await platform.services.calls!.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const killedAt = Date.now();
    // Still in conversation after the kill, then completed at their cap.
    for (const p of partners) {
      for (const id of p.callIds) expect((await getCall(p, id)).status).toBe('in_progress');
    }
    // The rolling restart's next replica boots while these calls run to their cap.
    await startReplica('third');
    for (const p of partners) await expectCompleted(p, p.callIds, killedAt);
    for (const p of partners) await expectChargedOnce(p, p.callIds, OPENING_BALANCE_INR);

    // The slots are free again: each partner starts up to its limit on the surviving replicas, not one more.
    const next = new Map<Partner, string[]>();
    for (const p of partners) {
      next.set(p, await startFull(p));
      const over = await start(p);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('LIMIT_REACHED');
    }

    // A replica stopped on purpose (a rolling restart) leaves its calls to the next one the same way.
    const before = new Map<Partner, number>();
    for (const p of partners) before.set(p, await balanceOf(p));
    expect(await replicas[0].stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const stoppedAt = Date.now();
    for (const p of partners) await expectCompleted(p, next.get(p)!, stoppedAt);
    for (const p of partners) await expectChargedOnce(p, next.get(p)!, before.get(p)!);
  }, 240_000);
});
