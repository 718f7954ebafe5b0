/**
 * The platform's own time per partner tool call: N simulated carrier_b calls at once whose every caller turn
 * makes the model call a partner's custom function, with a model and a partner endpoint that answer at once.
 *
 * The voice service runs as in the voice benchmark (run.ts: NATS of its own, zero-latency fake STT/chat/TTS
 * servers, fake calls service, the callers in a process of their own), and beside it the real agents service
 * on the same subject prefix against a fresh database (migrations run as it starts): it serves the voice
 * catalog and every `agents.custom_function.invoke` (the function's row read, the arguments checked against its
 * schema, the request signed and sent through the egress client, the integration log entry written). The
 * function is created through `agents.custom_function.create` as the gateway would, pointing at an HTTPS
 * endpoint in this process; the fake calls service's attach answers an agent whose custom_functions holds its
 * spec. The fake chat server answers each turn's first completion with a call of the function and the second,
 * carrying its result, with the spoken reply.
 *
 * Measured per tool call on this process's clock (tool-call-timing.ts): (a) the chat server finished streaming
 * the tool-call completion -> the partner endpoint received the request; (b) the partner finished its answer ->
 * the chat server received the next completion request. Target: both p99 under 5 ms at 100 calls.
 *
 * The caller's words end without punctuation, so they never look finished at a pause: the model is not asked
 * early (an early reply is adopted only at the endpoint, and its tool call would wait for it), and every tool
 * call is one the turn runs at once.
 *
 * Usage: node dist/bench/bench/voice/tool-calls.js [N ...]   (default: 100)
 * Settings: BENCH_TURNS (5: 500 tool calls a round of 100, so the p99 is not one of the two slowest),
 * BENCH_TTS_SECONDS (1), BENCH_RAMP_MS (2000), BENCH_WARMUP_CALLS (20, unreported),
 * BENCH_LOGS=1 prints the services' output, BENCH_CPU_PROF=<dir> writes V8 CPU profiles of voice and agents.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { Client } from 'pg';
import { CustomFunctionWithSecretDto } from '@vap/api';
import { FRAME_MS } from '@vap/media';
import { CustomFunctionSnapshot, customFunctionSnapshotOf, RpcReply, Subjects } from '@vap/messages';
import { freePort, ServiceHandle, sleep, startService, workspaceRoot } from '@vap/testing';
import { openBenchInfrastructure } from '../support/bench-infrastructure';
import { reportFigures } from '../support/figures';
import { ascending, figure, percentile } from '../support/percentiles';
import { selfSignedCertificate } from '../support/self-signed-certificate';
import { benchAgentSettings, benchCall } from './bench-call';
import { CallerFleet } from './caller-fleet';
import { startFakePlatformResponder, wireSubject } from './fake-platform-responder';
import { startFakeSpeechProviders } from './fake-speech-providers';
import { ProcessSampler } from './process-sampler';
import {
  TOOL_GAP_TARGET_MS,
  ToolCallTimeline,
  ToolCallTimingReport,
  toolCallFigures,
} from './tool-call-timing';
import { benchVoiceEnv } from './voice-env';

const rounds = process.argv.slice(2).map(Number);
if (rounds.some((n) => !Number.isInteger(n) || n <= 0)) {
  console.error('usage: tool-calls.js [concurrent calls ...]  e.g. tool-calls.js 100');
  process.exit(2);
}
if (rounds.length === 0) rounds.push(100);
const turns = Number(process.env.BENCH_TURNS ?? 5);
const ttsSeconds = Number(process.env.BENCH_TTS_SECONDS ?? 1);
const rampMs = Number(process.env.BENCH_RAMP_MS ?? 2000);
const warmupCalls = Number(process.env.BENCH_WARMUP_CALLS ?? 20);
const showLogs = process.env.BENCH_LOGS === '1';
const cpuProfileDir = process.env.BENCH_CPU_PROF;
// No final punctuation: see the header.
const TRANSCRIPT = 'I would like to know where my order is';
const REPLY = 'Your order ships tomorrow morning.';
const FUNCTION_NAME = 'order_status';
/** What the partner answers, at once. */
const PARTNER_ANSWER = JSON.stringify({ status: 'shipped', eta: 'tomorrow' });
/** The partner every benchmark call belongs to: the function is created for it. */
const PARTNER_ID = benchCall(0, benchAgentSettings(null), 'http://127.0.0.1', randomBytes(32)).context
  .partnerId;
const codec = JSONCodec();

interface RoundResult {
  calls: number;
  timing: ToolCallTimingReport;
  failed: number;
  unanswered: number;
  /** Tool invocations the voice service recorded as a success. */
  succeeded: number;
  /** Partner requests that came without the platform's signature header (should be 0). */
  unsigned: number;
  /** (a) split at the agents service's X-Vap-Timestamp, p50/p99 ms (wall clock, whole ms). */
  toAgentsSend: [number, number];
  agentsSendToPartner: [number, number];
  /** Integration log rows the agents service wrote during the round. */
  logRows: number;
  voiceCpuPercent: number;
  agentsCpuPercent: number;
  loadAverage: number;
  benchLoopDelayP99Ms: number;
}

/** The moments of the round being run: the servers below report into it. */
let timeline = new ToolCallTimeline();
let unsigned = 0;
/**
 * Wall-clock moments (ms) per tool call, to split (a) at the agents service's X-Vap-Timestamp (when the request
 * left it, after the function's row was read and the arguments checked): a split to the millisecond only.
 */
let wall = new Map<string, { streamed?: number; stamped?: number; received?: number }>();

function startPartnerEndpoint(tls: { cert: string; key: string }): Promise<Server> {
  const server = createServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAt = performance.now();
      if (!req.headers['x-vap-signature']) unsigned++;
      let ref: unknown;
      try {
        ref = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { arguments?: { ref?: unknown } })
          .arguments?.ref;
      } catch {
        ref = undefined;
      }
      const id = typeof ref === 'string' ? ref : '';
      timeline.partnerReceived(id, receivedAt);
      const moments = wall.get(id);
      if (moments && moments.received === undefined) {
        moments.received = Date.now();
        moments.stamped = Number(req.headers['x-vap-timestamp']);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(PARTNER_ANSWER, () => timeline.partnerAnswered(id, performance.now()));
    });
  });
  // The agents service keeps its connections to the partner alive between calls, as it would to a real one.
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Creates the partner's function as the gateway would, and returns the spec a call's agent carries. */
async function createFunction(
  nc: NatsConnection,
  prefix: string,
  url: string,
): Promise<CustomFunctionSnapshot> {
  const msg = await nc.request(
    wireSubject(prefix, Subjects.agents.customFunctionCreate),
    codec.encode({
      partnerId: PARTNER_ID,
      requestId: randomUUID(),
      data: {
        name: FUNCTION_NAME,
        description: 'Looks up where an order is.',
        parameters: {
          type: 'object',
          properties: { ref: { type: 'string', minLength: 1 }, order: { type: 'string' } },
          required: ['ref'],
          additionalProperties: false,
        },
        url,
        method: 'POST',
        timeout_ms: 5000,
        speech: { on_start: null, on_delay: null, on_failure: null },
      },
    }),
    { timeout: 10_000 },
  );
  const reply = codec.decode(msg.data) as RpcReply<CustomFunctionWithSecretDto>;
  if (!reply.ok) throw new Error(`custom_function.create: ${JSON.stringify(reply.error)}`);
  return customFunctionSnapshotOf(reply.data);
}

async function main(): Promise<void> {
  const tlsDir = mkdtempSync(join(tmpdir(), 'vap-bench-tls-'));
  const infra = await openBenchInfrastructure('vap_bench_voice_tools');
  const cleanups: (() => Promise<unknown>)[] = [
    () => infra.close(),
    async () => rmSync(tlsDir, { recursive: true, force: true }),
  ];
  const services: ServiceHandle[] = [];
  try {
    const tls = selfSignedCertificate(tlsDir);
    const partner = await startPartnerEndpoint(tls);
    cleanups.unshift(
      () =>
        new Promise<void>((resolve) => {
          partner.close(() => resolve());
          partner.closeAllConnections();
        }),
    );
    const partnerUrl = `https://127.0.0.1:${(partner.address() as AddressInfo).port}/orders/status`;
    const nc = await connect({ servers: infra.nats.url, name: 'bench-voice-tools' });
    cleanups.unshift(() => nc.drain());
    // The speech plan comes from the real agents service.
    const responder = await startFakePlatformResponder(nc, infra.prefix, null);
    cleanups.unshift(() => responder.close());
    const providers = await startFakeSpeechProviders({
      transcript: TRANSCRIPT,
      reply: REPLY,
      speechSeconds: ttsSeconds,
      toolCall: {
        name: FUNCTION_NAME,
        arguments: (id) => ({ ref: id, order: 'A-1001' }),
        onStreamed: (id, at) => {
          timeline.streamed(id, at);
          wall.set(id, { streamed: Date.now() });
        },
      },
      onCompletion: (request, receivedAt) => {
        const last = request.messages?.[request.messages.length - 1];
        if (last?.role === 'tool' && last.tool_call_id)
          timeline.resultReceived(last.tool_call_id, receivedAt);
      },
    });
    cleanups.unshift(() => providers.close());
    const fleet = CallerFleet.start();
    cleanups.unshift(() => fleet.close());

    const profile = (name: string) =>
      cpuProfileDir
        ? [`--cpu-prof`, `--cpu-prof-dir=${cpuProfileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
        : [];
    const agents = await startService('agents', {
      port: await freePort(),
      label: 'agents',
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATABASE_URL: infra.db.url,
        NATS_URL: infra.nats.url,
        NATS_SUBJECT_PREFIX: infra.prefix,
        SECRETS_KEY: randomBytes(32).toString('hex'),
        // The partner endpoint listens on 127.0.0.1, with a certificate of its own.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: tls.cert,
      },
      logFile: join(workspaceRoot(), '.data', 'logs', 'bench-voice-tools-agents.log'),
      prefixLogs: showLogs,
      nodeArgs: profile('agents'),
      readyTimeoutMs: 120_000,
    });
    services.push(agents);
    const spec = await createFunction(nc, infra.prefix, partnerUrl);

    const tokenKey = randomBytes(32);
    const port = await freePort();
    const voice = await startService('voice', {
      port,
      label: 'voice',
      env: {
        ...benchVoiceEnv(infra, providers, tokenKey, Math.max(...rounds, warmupCalls)),
        MEDIA_PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      logFile: join(workspaceRoot(), '.data', 'logs', 'bench-voice-tools-voice.log'),
      prefixLogs: showLogs,
      nodeArgs: profile('voice'),
      readyTimeoutMs: 60_000,
    });
    services.push(voice);

    console.log(
      `voice tool-call benchmark: rounds of ${rounds.join(', ')} concurrent carrier_b calls, ${turns} turn(s) ` +
        `each with one partner function call, real agents service, zero-latency model and partner, ` +
        `Node ${process.version}`,
    );
    const deps: RoundDeps = { voice, agents, responder, fleet, tokenKey, spec, dbUrl: infra.db.url };
    if (warmupCalls > 0) {
      const warmup = await runRound(warmupCalls, deps);
      console.log(
        `warm-up round of ${warmupCalls} calls (not reported): ${warmup.timing.complete} tool calls, ` +
          `${warmup.failed} failed`,
      );
    }
    const results: RoundResult[] = [];
    for (const calls of rounds) results.push(await runRound(calls, deps));
    printReport(results);
    const broken = results.filter(
      (r) => r.failed > 0 || r.timing.complete === 0 || r.timing.complete < r.timing.toolCalls,
    );
    if (broken.length) {
      throw new Error(
        broken
          .map(
            (r) =>
              `${r.calls} calls: ${r.failed} failed, ${r.timing.complete} of ${r.timing.toolCalls} tool calls ` +
              `measured (${r.timing.notSent} not sent, ${r.timing.resultNotSeen} results not seen)`,
          )
          .join('; '),
      );
    }
  } catch (err) {
    for (const service of services) {
      console.error(
        `${service.name} (pid ${service.pid}) last output:\n  ${service.recentOutput(30).join('\n  ')}`,
      );
    }
    throw err;
  } finally {
    for (const service of services.reverse()) await service.stop().catch(() => undefined);
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

interface RoundDeps {
  voice: ServiceHandle;
  agents: ServiceHandle;
  responder: Awaited<ReturnType<typeof startFakePlatformResponder>>;
  fleet: CallerFleet;
  tokenKey: Buffer;
  spec: CustomFunctionSnapshot;
  dbUrl: string;
}

async function integrationLogRows(dbUrl: string): Promise<number> {
  const client = new Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM agents.integration_logs',
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

async function runRound(calls: number, deps: RoundDeps): Promise<RoundResult> {
  const { voice, agents, responder, fleet } = deps;
  responder.resetReports();
  timeline = new ToolCallTimeline();
  wall = new Map();
  unsigned = 0;
  const agent = { ...benchAgentSettings(null), customFunctions: [deps.spec] };
  const placed = Array.from({ length: calls }, (_, i) =>
    benchCall(i, agent, `http://127.0.0.1:${voice.port}`, deps.tokenKey),
  );
  for (const call of placed) responder.register(call.context);
  const logsBefore = await integrationLogRows(deps.dbUrl);
  const voiceSampler = new ProcessSampler([voice.pid]);
  const agentsSampler = new ProcessSampler([agents.pid]);
  voiceSampler.start();
  agentsSampler.start();
  const fleetRound = await fleet.run({
    calls: placed.map((call) => ({ url: call.streamUrl, callId: call.context.callId })),
    rampMs,
    turns,
    expectIntro: false,
    minAnswerFrames: Math.floor(((ttsSeconds * 1000) / FRAME_MS) * 0.9),
  });
  const voiceUsage = voiceSampler.stop();
  const agentsUsage = agentsSampler.stop();
  const deadline = performance.now() + 10_000;
  while (responder.ended.size < calls && performance.now() < deadline) await sleep(100);
  for (const call of placed) responder.forget(call.context.callId);
  const { results } = fleetRound;
  const errors = [...new Set(results.flatMap((r) => (r.error ? [r.error] : [])))];
  if (errors.length) console.log(`round of ${calls}: call errors: ${errors.slice(0, 5).join('; ')}`);
  const percent = (u: { cpuSeconds: number; wallSeconds: number }) =>
    u.wallSeconds > 0 ? (100 * u.cpuSeconds) / u.wallSeconds : 0;
  return {
    calls,
    timing: timeline.summarise(),
    ...wallSplit(),
    failed: results.filter((r) => r.error !== undefined).length,
    unanswered: results.reduce((sum, r) => sum + r.unanswered, 0),
    succeeded: responder.toolCalls.filter((t) => t.kind === 'custom' && t.outcome === 'success').length,
    unsigned,
    logRows: (await integrationLogRows(deps.dbUrl)) - logsBefore,
    voiceCpuPercent: percent(voiceUsage),
    agentsCpuPercent: percent(agentsUsage),
    loadAverage: loadavg()[0],
    benchLoopDelayP99Ms: fleetRound.loopDelayP99Ms,
  };
}

function wallSplit(): Pick<RoundResult, 'toAgentsSend' | 'agentsSendToPartner'> {
  const seen = [...wall.values()].filter(
    (m) => m.streamed !== undefined && m.received !== undefined && Number.isFinite(m.stamped),
  );
  const p50p99 = (values: number[]): [number, number] => {
    const sorted = ascending(values);
    return [percentile(sorted, 50), percentile(sorted, 99)];
  };
  return {
    toAgentsSend: p50p99(seen.map((m) => m.stamped! - m.streamed!)),
    agentsSendToPartner: p50p99(seen.map((m) => m.received! - m.stamped!)),
  };
}

function printReport(results: RoundResult[]): void {
  console.table(
    results.map((r) => ({
      calls: r.calls,
      failed: r.failed,
      unanswered: r.unanswered,
      'tool calls': r.timing.toolCalls,
      measured: r.timing.complete,
      'succeeded (voice)': r.succeeded,
      'log rows': r.logRows,
      unsigned: r.unsigned,
      'call -> partner p50 ms': figure(r.timing.dispatchP50Ms, 2),
      'call -> partner p99 ms': figure(r.timing.dispatchP99Ms, 2),
      'answer -> model p50 ms': figure(r.timing.resumeP50Ms, 2),
      'answer -> model p99 ms': figure(r.timing.resumeP99Ms, 2),
      'voice CPU %': figure(r.voiceCpuPercent, 0),
      'agents CPU %': figure(r.agentsCpuPercent, 0),
      'load avg 1m': figure(r.loadAverage, 2),
    })),
  );
  for (const r of results) {
    if (r.timing.notSent || r.timing.resultNotSeen || r.timing.unknown) {
      console.log(
        `round of ${r.calls}: ${r.timing.notSent} tool call(s) never reached the partner, ` +
          `${r.timing.resultNotSeen} result(s) never reached the model, ${r.timing.unknown} unpaired moment(s)`,
      );
    }
    console.log(
      `round of ${r.calls}: tool call -> partner request split at the agents service's X-Vap-Timestamp ` +
        `(wall clock, whole ms): streamed -> request leaves agents p50 ${r.toAgentsSend[0]} / p99 ` +
        `${r.toAgentsSend[1]} ms, leaves agents -> partner received p50 ${r.agentsSendToPartner[0]} / p99 ` +
        `${r.agentsSendToPartner[1]} ms`,
    );
    if (r.benchLoopDelayP99Ms > 5) {
      console.log(
        `round of ${r.calls}: the callers' event loop lagged (p99 ${figure(r.benchLoopDelayP99Ms)} ms)`,
      );
    }
    for (const [what, p99] of [
      ['tool call -> partner request', r.timing.dispatchP99Ms],
      ['partner answer -> next model request', r.timing.resumeP99Ms],
    ] as const) {
      if (r.calls !== 100) continue;
      const met = p99 < TOOL_GAP_TARGET_MS;
      console.log(
        `${r.calls} calls: ${what} p99 ${figure(p99, 2)} ms (target < ${TOOL_GAP_TARGET_MS}) ${met ? 'met' : 'MISSED'}`,
      );
    }
  }
  reportFigures(results.flatMap((r) => toolCallFigures(r.timing, r.calls, `voice tools (${r.calls} calls)`)));
}

main().catch((err) => {
  console.error(`voice tool-call benchmark failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
