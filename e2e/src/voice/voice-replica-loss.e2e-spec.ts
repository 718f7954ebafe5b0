// The voice app going away mid-call, end to end through the gateway and the fake carriers: stopped on purpose
// (SIGTERM, a rollout or a scale-down) it takes no new stream but keeps its live call going until the call ends;
// killed (SIGKILL), its calls are hung up at the carrier, ended with the reason, billed once for what was
// answered, their transcript so far kept and session.completed delivered once.
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { ServiceHandle, startService, voiceEnvOf, waitFor } from '@vap/testing';
import { CALL_SERVICES, e2eEnv, HttpsReceiver, startHttpsReceiver } from '../../support';
import { LiveCall, VoiceWorld } from './voice-fixtures';
import { voiceScript } from './voice-script';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const INTRO = 'Hello, this is Maya from Acme.';
const OPENING_BALANCE_INR = 5000;
/**
 * This world's SHUTDOWN_TIMEOUT_MS: how long a stopping process may take before it is forced out, unless it says
 * otherwise. The voice app says its drain (DRAIN_DEADLINE_MS, longer than any call: its config spec pins the
 * default) comes first, so a live call outlives this by far; a drain bounded by it would cut the call.
 */
const SHUTDOWN_TIMEOUT_MS = 3000;

describe('a voice replica that stops mid-call', () => {
  let world: VoiceWorld;
  let receiver: HttpsReceiver;
  let agentId: string;

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    world = await VoiceWorld.start({
      name: 'voice_loss',
      services: [...CALL_SERVICES, 'webhooks'],
      providers: { llm: true },
      // session.completed goes to the receiver on loopback, over HTTPS with the run's test CA.
      env: {
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        ...(process.env.E2E_TLS_CA ? { NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA } : {}),
      },
    });
    world.ai.script(voiceScript);
    const endpoint = await world.api('/config/webhooks', {
      method: 'POST',
      body: { label: 'sessions', url: `${receiver.url}/hooks`, events: ['session.completed'] },
    });
    expect(endpoint.status).toBe(200);
    // No cap within the test's reach: the calls end when the test ends them.
    agentId = (await world.agent({ max_call_duration_secs: 3600 })).id;
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await receiver?.close();
  });

  const balance = async () => (await world.api('/billing/balance')).body.data.balance_inr as number;

  /** The opening balance less the credits_used of every ended call of the world's partner (one page holds them). */
  async function balanceOwed(): Promise<number> {
    const { calls } = (await world.api('/calls?limit=100')).body.data as { calls: Any[] };
    expect(calls.length).toBeLessThan(100);
    const used = calls
      .filter((c) => c.ended_at !== null)
      .reduce((sum, c) => sum + (c.session.credits_used as number), 0);
    return Math.round((OPENING_BALANCE_INR - used) * 100) / 100;
  }

  /** Waits until the balance shows every ended call charged exactly once, and that it stays so. */
  async function expectBalanceCharged(): Promise<void> {
    let expected = 0;
    await waitFor(async () => ((await balance()) === (expected = await balanceOwed()) ? true : undefined), {
      timeoutMs: 30_000,
      description: 'the balance to show every ended call charged once',
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await balance()).toBe(expected);
    expect(await balanceOwed()).toBe(expected);
  }

  /** The session.completed deliveries of a call the receiver got. */
  const completions = (callId: string) =>
    receiver.requests.filter(
      (r) =>
        r.headers['x-webhook-event'] === 'session.completed' && (r.json as Any)?.data?.call_id === callId,
    );

  /** The caller says `text` (a sentence ending in a period) once the agent is silent, and hears the answer. */
  async function turn(call: LiveCall, text: string): Promise<void> {
    await call.media.waitUntilAgentSilent();
    await call.media.say(text);
    await call.media.waitForHeard(`You said ${text}`);
  }

  /** The HTTP status a media-stream upgrade to `base` is refused with (any stream path). */
  function upgradeStatus(base: string): Promise<number> {
    const url = `${base.replace(/^http/, 'ws')}/media/carrier_b/${randomUUID()}?token=t`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => {
        ws.close();
        reject(new Error('the upgrade was accepted'));
      });
      ws.on('error', reject);
    });
  }

  it('draining (SIGTERM): no new streams, not ready, and the live call goes on until it ends', async () => {
    const voice = world.own.platform.services.voice!;
    const call = await world.dial('carrier_b', agentId);
    await call.media.waitForHeard(INTRO);
    await turn(call, 'I would like to know your opening hours.');

    process.kill(voice.pid, 'SIGTERM');
    await waitFor(
      async () => ((await fetch(`${voice.url}/health/ready`)).status === 503 ? true : undefined),
      { timeoutMs: 10_000, description: 'the draining replica to report not ready' },
    );
    // New streams are refused here, so carriers' upgrades go to a replica that takes them.
    expect(await upgradeStatus(world.own.platform.mediaPublicUrl)).toBe(503);

    // Well past the time a stopping process is given: the call is still on, and the agent still answers.
    await new Promise((resolve) => setTimeout(resolve, 2 * SHUTDOWN_TIMEOUT_MS));
    expect(await world.call(call.callId)).toMatchObject({ status: 'in_progress', end_call_reason: null });
    expect(world.fake.hangups.filter((h) => h.id === call.placed.providerCallId)).toEqual([]);
    expect((await fetch(`${voice.url}/health/ready`)).status).toBe(503);
    await turn(call, 'Are you still there.');

    // The caller hangs up once the answer has played out (hung up sooner, the answer is kept as far as it was
    // heard): the call ends as any call does, and the replica, holding no call now, exits.
    await call.media.waitUntilAgentSilent();
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
    expect(await voice.exited).toEqual({ code: 0, signal: null });
    const done = await world.finished(call.callId);
    expect(done.session.credits_used).toBeGreaterThan(0);
    expect(done.end_call_reason).not.toBe('replica_draining');
    expect(done.session.transcript.map((e: Any) => e.content)).toEqual(
      expect.arrayContaining([
        INTRO,
        'I would like to know your opening hours.',
        'Are you still there.',
        'You said Are you still there.',
      ]),
    );
    await expectBalanceCharged();
  }, 180_000);

  it('killed (SIGKILL): its calls are hung up and ended, billed once, transcript kept, reported once', async () => {
    // A replica on the port carriers are given, as the one the platform started (the previous test drained it).
    const first = world.own.platform.services.voice!;
    await first.exited;
    const logDir = e2eEnv().logDir;
    let voice: ServiceHandle | undefined = await startService('voice', {
      port: first.port,
      env: voiceEnvOf(world.own.platform.env),
      logFile: logDir ? join(logDir, 'voice_loss', 'voice-2.log') : undefined,
    });
    try {
      const calls = [await world.dial('carrier_b', agentId), await world.dial('carrier_a', agentId)];
      for (const call of calls) {
        await call.media.waitForHeard(INTRO);
        await turn(call, 'Tell me about pricing.');
      }
      // Every line said so far has reached the calls service.
      for (const call of calls) {
        await world.transcript(call.callId, (e) =>
          e.some((x) => x.content === 'You said Tell me about pricing.'),
        );
      }
      await expectBalanceCharged();

      const killed = await voice.stop('SIGKILL');
      expect(killed.signal).toBe('SIGKILL');
      voice = undefined;
      const killedAt = Date.now();

      // The platform hangs up through each carrier's REST API, within seconds (the heartbeat's lapse and a
      // check), not at the stale sweep an hour later; the carrier then reports the end, as it would.
      for (const call of calls) {
        await world.hungUpByPlatform(call, 30_000);
        call.media.drop();
      }
      expect(Date.now() - killedAt).toBeLessThan(30_000);

      for (const call of calls) {
        const done = await world.finished(call.callId);
        expect(done).toMatchObject({
          status: 'completed',
          end_call_reason: 'voice_replica_lost',
          hangup_source: 'system',
        });
        expect(done.duration_seconds).toBeGreaterThan(0);
        expect(done.session.credits_used).toBeGreaterThan(0);
        // The transcript said before the kill is kept.
        expect(done.session.transcript.map((e: Any) => [e.role, e.content])).toEqual(
          expect.arrayContaining([
            ['bot', INTRO],
            ['user', 'Tell me about pricing.'],
            ['bot', 'You said Tell me about pricing.'],
          ]),
        );
      }
      // Billed once each: the balance drops by exactly their credits.
      await expectBalanceCharged();

      // session.completed reached the partner once per call, with the reason and the transcript.
      for (const call of calls) {
        const delivered = await waitFor(
          () => (completions(call.callId).length > 0 ? completions(call.callId) : undefined),
          { timeoutMs: 30_000, description: `session.completed of ${call.callId} at the receiver` },
        );
        expect((delivered[0].json as Any).data).toMatchObject({
          call_id: call.callId,
          status: 'completed',
          transcript: expect.arrayContaining([expect.objectContaining({ content: INTRO })]),
          call: expect.objectContaining({ end_call_reason: 'voice_replica_lost' }),
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
      for (const call of calls) expect(completions(call.callId)).toHaveLength(1);
    } finally {
      await voice?.stop('SIGKILL');
    }
  }, 180_000);
});
