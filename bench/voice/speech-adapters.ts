/**
 * The platform's own time around each speech adapter: for every TTS and STT provider, N concurrent calls through
 * the built voice service whose speech plan names that provider with a key and the base URL of its fake, and:
 * - TTS: the first frame of each agent line (the intro and every answer) arriving at the simulated caller, minus
 *   the fake's stamp of handing that synthesis's first audio to its socket;
 * - STT: the fake's stamp of receiving the audio of the caller's last voiced frame of a turn, minus the caller's
 *   stamp of sending that frame.
 * Nothing else is subtracted: both figures include the loopback network's own cost, which a bare WebSocket from
 * the callers' process to this one measures apart (printed beside them). Each adapter's p99 is given as a ratio to
 * the OpenAI-compatible adapter's of the same kind in the same run, and against the 5 ms target.
 *
 * Processes: the voice service on one core; this process (NATS-side fake calls/agents services, the fake speech
 * providers) and the callers' process on the other (`taskset`; BENCH_PIN=0 leaves them be). All stamps are
 * CLOCK_MONOTONIC (process.hrtime.bigint(); the callers' performance.now() offset to it), which Linux shares
 * across processes. The fakes are the providers' protocol fakes of @vap/speech/testing (the Deepgram live one of
 * the e2e support), as the adapters' specs use them; the OpenAI-compatible one is the benchmark's zero-latency
 * server. The caller says the offline engine's speech of a line, which the fakes' recognisers read back, so every
 * turn is answered as in a real call; the deployment's default STT (the OpenAI-compatible fake) hears the TTS runs'
 * callers, and its default TTS speaks in the STT runs.
 *
 * Usage: node dist/bench/bench/voice/speech-adapters.js
 * Settings: BENCH_CALLS (100 per adapter), BENCH_TURNS (2), BENCH_RAMP_MS (2000), BENCH_WARMUP_CALLS (20: an
 * unreported first run on the OpenAI-compatible adapter), BENCH_ADAPTERS (e.g. "tts:openai,tts:cartesia,stt:sarvam";
 * all by default), BENCH_PIN (1), BENCH_LOGS=1 prints the voice service's output.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { connect } from 'nats';
import { WebSocketServer } from 'ws';
import type { SpeechPlan, SttPlanEntry, TtsPlanEntry } from '@vap/messages';
import {
  AssemblyAiFake,
  AzureTtsFake,
  CartesiaFake,
  DeepgramSession,
  DeepgramSpeakFake,
  ElevenLabsFake,
  FailureSwitch,
  handleListenUpgrade,
  SarvamFake,
} from '@vap/speech/testing';
import {
  freePort,
  sendJson,
  ServiceHandle,
  sleep,
  startFakeServer,
  startService,
  workspaceRoot,
} from '@vap/testing';
import { openBenchNats } from '../support/bench-nats';
import { ascending, figure, percentile } from '../support/percentiles';
import { BENCH_VOICE_ID, BENCH_VOICE_PLAN_ENTRY, benchAgentSettings, benchCall } from './bench-call';
import { CallerFleet, monotonicNs } from './caller-fleet';
import { pinningWanted, pinToCore, processTree } from './core-pinning';
import { startFakePlatformResponder } from './fake-platform-responder';
import { startFakeSpeechProviders } from './fake-speech-providers';
import { SimulatedCallResult } from './simulated-caller';
import { ProcessSampler } from './process-sampler';
import { callKey, InboundAudio, SpeechTap } from './speech-tap';
import { benchVoiceEnv } from './voice-env';

type Kind = 'tts' | 'stt';

interface Adapter {
  kind: Kind;
  provider: string;
  /** Where its fake listens (the plan credential's baseUrl). */
  baseUrl: string;
  tts?: Omit<TtsPlanEntry, 'credential'>;
  stt?: Omit<SttPlanEntry, 'credential'>;
}

const calls = Number(process.env.BENCH_CALLS ?? 100);
const turns = Number(process.env.BENCH_TURNS ?? 2);
const rampMs = Number(process.env.BENCH_RAMP_MS ?? 2000);
const warmupCalls = Number(process.env.BENCH_WARMUP_CALLS ?? 20);
const only = (process.env.BENCH_ADAPTERS ?? '').split(/[\s,]+/).filter(Boolean);
/** Read before this process is pinned (the count then follows its affinity). */
const cores = availableParallelism();
const pin = pinningWanted(cores);
const showLogs = process.env.BENCH_LOGS === '1';
const TARGET_MS = 5;
/** The key every fake accepts (each call's own key is swapped for it at the fake's door). */
const FAKE_KEY = 'bench-fake-provider-key';
const TRANSCRIPT = 'I would like to know my order status.';
const REPLY = 'Your order ships tomorrow morning.';
const INTRO = 'Hello, this is the benchmark agent.';
/** A turn's end is looked for at the STT fake this long after the caller sent it (the next turn starts later). */
const STT_WINDOW_MS = 2000;

interface AdapterFigures {
  adapter: Adapter;
  samplesMs: number[];
  /** Lines or turns with no stamp to pair (the provider did not serve it, or the call failed). */
  unmatched: number;
  failedCalls: number;
  unanswered: number;
  /** The callers' event-loop delay p99: their arrival and send stamps are late by up to this. */
  loopDelayP99Ms: number;
  /** This process's event-loop delay p99: the fakes' stamps are late by up to this. */
  fakesLoopDelayP99Ms: number;
  /** The voice service's CPU over the run, as a share of its one core. */
  voiceCpuShare: number;
}

async function main(): Promise<void> {
  if (!Number.isInteger(calls) || calls <= 0 || !Number.isInteger(turns) || turns <= 0) {
    throw new Error('BENCH_CALLS and BENCH_TURNS: positive whole numbers');
  }
  // This process and the callers' (forked after) on the second core; the voice service on the first.
  if (pin) pinToCore(1, process.pid);
  const tap = SpeechTap.install();
  const infra = await openBenchNats();
  const cleanups: (() => Promise<unknown>)[] = [() => infra.close()];
  try {
    const nc = await connect({ servers: infra.nats.url, name: 'bench-voice-speech' });
    cleanups.unshift(() => nc.drain());
    const openai = await startFakeSpeechProviders({ transcript: TRANSCRIPT, reply: REPLY, speechSeconds: 2 });
    cleanups.unshift(() => openai.close());
    const fakes = await startProviderFakes();
    cleanups.unshift(() => fakes.close());
    tap.watch(openai.rootUrl, { fakeKey: 'bench', inbound: 'upload' });
    for (const [url, inbound] of fakes.watched) tap.watch(url, { fakeKey: FAKE_KEY, inbound });
    const adapters = adaptersOf(openai.baseUrl, fakes).filter(
      (a) => only.length === 0 || only.includes(`${a.kind}:${a.provider}`),
    );

    // Each call's plan: the adapter under test with the call's own key, the deployment's default for the rest.
    let current: Adapter = adapters[0];
    const indexOf = new Map<string, number>();
    const responder = await startFakePlatformResponder(nc, infra.prefix, (request) =>
      planFor(current, indexOf.get(request.callId) ?? -1),
    );
    cleanups.unshift(() => responder.close());

    const tokenKey = randomBytes(32);
    const fleet = CallerFleet.start();
    cleanups.unshift(() => fleet.close());
    const port = await freePort();
    const voice = await startService('voice', {
      port,
      label: 'voice',
      env: {
        ...benchVoiceEnv(infra, openai, tokenKey, Math.max(calls, warmupCalls)),
        MEDIA_PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      logFile: join(workspaceRoot(), '.data', 'logs', 'bench-voice-speech.log'),
      prefixLogs: showLogs,
      readyTimeoutMs: 60_000,
    });
    cleanups.unshift(() => voice.stop());
    if (pin) for (const pid of processTree(voice.pid)) pinToCore(0, pid);

    console.log(
      `voice speech adapters: ${calls} concurrent carrier_b calls per adapter, an intro and ${turns} caller ` +
        `turn(s) each, ramped over ${rampMs} ms; voice ${pin ? 'on core 0, fakes and callers on core 1' : 'unpinned'}` +
        `, ${cores} cores, Node ${process.version}, load average ${loadavg()[0].toFixed(2)}`,
    );
    const loopback = await measureLoopback(fleet);
    const deps = { voice, fleet, tap, indexOf, tokenKey, responder };
    if (warmupCalls > 0) {
      current = adapters.find((a) => a.provider === 'openai') ?? adapters[0];
      const warm = await runAdapter(current, warmupCalls, deps);
      console.log(
        `warm-up: ${warmupCalls} calls on ${current.kind}:${current.provider} (not reported), ${warm.failedCalls} failed`,
      );
    }
    const results: AdapterFigures[] = [];
    for (const adapter of adapters) {
      current = adapter;
      const result = await runAdapter(adapter, calls, deps);
      results.push(result);
      console.log(
        `  ${adapter.kind}:${adapter.provider}: ${result.samplesMs.length} samples, p99 ` +
          `${figure(percentile(ascending(result.samplesMs), 99), 2)} ms`,
      );
    }
    printReport(results, loopback);
  } catch (err) {
    process.exitCode = 1;
    throw err;
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

interface ProviderFakes {
  elevenlabs: ElevenLabsFake;
  cartesia: CartesiaFake;
  deepgramSpeak: DeepgramSpeakFake;
  azure: AzureTtsFake;
  sarvam: SarvamFake;
  assemblyai: AssemblyAiFake;
  deepgramListenUrl: string;
  /** Each fake's base URL and how it receives caller audio. */
  watched: [string, InboundAudio | undefined][];
  close(): Promise<void>;
}

async function startProviderFakes(): Promise<ProviderFakes> {
  const apiKey = FAKE_KEY;
  const [elevenlabs, cartesia, deepgramSpeak, azure, sarvam, assemblyai] = await Promise.all([
    ElevenLabsFake.start({ apiKey }),
    CartesiaFake.start({ apiKey }),
    DeepgramSpeakFake.start({ apiKey }),
    AzureTtsFake.start({ apiKey }),
    SarvamFake.start({ apiKey }),
    AssemblyAiFake.start({ apiKey }),
  ]);
  // Deepgram's live listen (the fake's protocol handler on a server of its own, so its audio is watched apart); its sessions are kept
  // only as many as a run makes.
  const wss = new WebSocketServer({ noServer: true });
  const sessions: DeepgramSession[] = [];
  const listen = await startFakeServer({
    request: (_req, res) => sendJson(res, 404, { err_msg: 'only /v1/listen is served' }),
    upgrade: (req, socket, head) => {
      if (sessions.length > 4 * calls) sessions.splice(0, sessions.length);
      handleListenUpgrade(wss, req, socket, head, apiKey, new FailureSwitch(), sessions);
    },
  });
  return {
    elevenlabs,
    cartesia,
    deepgramSpeak,
    azure,
    sarvam,
    assemblyai,
    deepgramListenUrl: `${listen.url}/v1`,
    watched: [
      [elevenlabs.baseUrl, undefined],
      [cartesia.baseUrl, undefined],
      [deepgramSpeak.baseUrl, undefined],
      [azure.baseUrl, undefined],
      [sarvam.baseUrl, 'sarvam-json'],
      [assemblyai.baseUrl, 'pcm16'],
      [listen.url, 'mulaw'],
    ],
    async close() {
      for (const client of wss.clients) client.terminate();
      await Promise.all([
        elevenlabs.close(),
        cartesia.close(),
        deepgramSpeak.close(),
        azure.close(),
        sarvam.close(),
        assemblyai.close(),
        listen.close(),
      ]);
    },
  };
}

/** The adapters in the order they run; each kind's OpenAI-compatible one first (the ratios' base). */
function adaptersOf(openaiBaseUrl: string, fakes: ProviderFakes): Adapter[] {
  const voice = (
    provider: TtsPlanEntry['provider'],
    providerVoiceId: string,
    model: string,
    language = 'en-IN',
  ): Omit<TtsPlanEntry, 'credential'> => ({
    provider,
    voiceId: BENCH_VOICE_ID,
    providerVoiceId,
    model,
    speed: 1,
    volume: 1,
    language,
  });
  const stt = (provider: SttPlanEntry['provider'], model?: string): Omit<SttPlanEntry, 'credential'> => ({
    provider,
    ...(model ? { model } : {}),
    languages: ['en'],
  });
  return [
    { kind: 'tts', provider: 'openai', baseUrl: openaiBaseUrl, tts: BENCH_VOICE_PLAN_ENTRY },
    {
      kind: 'tts',
      provider: 'elevenlabs',
      baseUrl: fakes.elevenlabs.baseUrl,
      tts: voice('elevenlabs', 'mxgJTeKdNnFRIBXuDL7D', 'eleven_flash_v2_5'),
    },
    {
      kind: 'tts',
      provider: 'cartesia',
      baseUrl: fakes.cartesia.baseUrl,
      tts: voice('cartesia', 'cb5c7427-3f98-4277-8cbd-87ad5c90a958', 'sonic-2'),
    },
    {
      kind: 'tts',
      provider: 'deepgram',
      baseUrl: fakes.deepgramSpeak.baseUrl,
      tts: voice('deepgram', 'aura-2-thalia-en', 'aura-2', 'en-US'),
    },
    {
      kind: 'tts',
      provider: 'azure',
      baseUrl: fakes.azure.baseUrl,
      tts: voice('azure', 'en-IN-NeerjaNeural', 'neural'),
    },
    {
      kind: 'tts',
      provider: 'sarvam',
      baseUrl: fakes.sarvam.baseUrl,
      tts: voice('sarvam', 'anushka', 'bulbul:v2'),
    },
    { kind: 'stt', provider: 'openai', baseUrl: openaiBaseUrl, stt: stt('openai', 'whisper-1') },
    { kind: 'stt', provider: 'deepgram', baseUrl: fakes.deepgramListenUrl, stt: stt('deepgram', 'nova-3') },
    { kind: 'stt', provider: 'assemblyai', baseUrl: fakes.assemblyai.baseUrl, stt: stt('assemblyai') },
    { kind: 'stt', provider: 'sarvam', baseUrl: fakes.sarvam.baseUrl, stt: stt('sarvam', 'saarika:v2.5') },
  ];
}

function planFor(adapter: Adapter, index: number): SpeechPlan {
  const credential = {
    provider: adapter.provider as NonNullable<TtsPlanEntry['credential']>['provider'],
    apiKey: callKey(index),
    baseUrl: adapter.baseUrl,
    ...(adapter.provider === 'azure' ? { region: 'centralindia' } : {}),
    paidBy: 'account' as const,
  };
  return {
    tts: [adapter.tts ? { ...adapter.tts, credential } : { ...BENCH_VOICE_PLAN_ENTRY }],
    stt: adapter.stt ? [{ ...adapter.stt, credential }] : [],
    keyterms: [],
    pronunciations: [],
  };
}

interface RunDeps {
  voice: ServiceHandle;
  fleet: CallerFleet;
  tap: SpeechTap;
  indexOf: Map<string, number>;
  tokenKey: Buffer;
  responder: Awaited<ReturnType<typeof startFakePlatformResponder>>;
}

async function runAdapter(adapter: Adapter, count: number, deps: RunDeps): Promise<AdapterFigures> {
  const { tap, responder, indexOf } = deps;
  responder.resetReports();
  tap.reset();
  indexOf.clear();
  const agent = benchAgentSettings(INTRO);
  const placed = Array.from({ length: count }, (_, i) => {
    const call = benchCall(i, agent, `http://127.0.0.1:${deps.voice.port}`, deps.tokenKey);
    indexOf.set(call.context.callId, i);
    responder.register(call.context);
    return call;
  });
  const sampler = new ProcessSampler([deps.voice.pid]);
  const fakesLoop = monitorEventLoopDelay({ resolution: 1 });
  sampler.start();
  fakesLoop.enable();
  const round = await deps.fleet.run({
    calls: placed.map((call) => ({ url: call.streamUrl, callId: call.context.callId })),
    rampMs,
    turns,
    expectIntro: true,
    // The fakes speak a line as the offline engine does (about two seconds); a few frames tell it started.
    minAnswerFrames: 10,
    audioText: TRANSCRIPT,
    answerTimeoutMs: 10_000,
  });
  fakesLoop.disable();
  const usage = sampler.stop();
  const deadline = performance.now() + 10_000;
  while (responder.ended.size < count && performance.now() < deadline) await sleep(100);
  for (const call of placed) responder.forget(call.context.callId);

  const offset = BigInt(round.monotonicOffsetNs);
  const samplesMs: number[] = [];
  let unmatched = 0;
  round.results.forEach((result, index) => {
    const pairs =
      adapter.kind === 'tts'
        ? ttsPairs(result, tap.synthesisStarts.get(index) ?? [], offset)
        : sttPairs(result, tap.voicedReceipts.get(index) ?? [], offset);
    for (const ms of pairs) {
      if (ms === undefined) unmatched++;
      else samplesMs.push(ms);
    }
  });
  return {
    adapter,
    samplesMs,
    unmatched,
    failedCalls: round.results.filter((r) => r.error).length,
    unanswered: round.results.reduce((sum, r) => sum + r.unanswered, 0),
    loopDelayP99Ms: round.loopDelayP99Ms,
    // The histogram holds whole sampling intervals: the delay is what exceeds one.
    fakesLoopDelayP99Ms: Math.max(0, fakesLoop.percentile(99) / 1e6 - 1),
    voiceCpuShare: usage.cpuSeconds / usage.wallSeconds,
  };
}

/**
 * Per agent line of the call (intro, then each answer): its first speech frame's arrival minus the start of the
 * synthesis that made it, the latest one stamped before that arrival (and after the caller's turn it answers).
 */
function ttsPairs(result: SimulatedCallResult, starts: bigint[], offset: bigint): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  for (let line = 0; line <= turns; line++) {
    const first = result.frames.find((f) => f.answer === line && f.speech);
    if (!first) {
      out.push(undefined);
      continue;
    }
    const arrived = monotonicNs(first.at, offset);
    const after = line > 0 ? monotonicNs(result.turnEndsAt[line - 1] ?? Infinity, offset) : 0n;
    let start: bigint | undefined;
    for (const s of starts) if (s <= arrived && s > after && (start === undefined || s > start)) start = s;
    out.push(start === undefined ? undefined : Number(arrived - start) / 1e6);
  }
  return out;
}

/**
 * Per caller turn: the fake's last receipt of voiced audio within STT_WINDOW_MS after the caller sent the turn's
 * last voiced frame (only silence follows it), minus that send.
 */
function sttPairs(result: SimulatedCallResult, receipts: bigint[], offset: bigint): (number | undefined)[] {
  const window = BigInt(STT_WINDOW_MS) * 1_000_000n;
  return result.turnEndsAt.map((at) => {
    const sent = monotonicNs(at, offset);
    let last: bigint | undefined;
    for (const r of receipts)
      if (r >= sent && r <= sent + window && (last === undefined || r > last)) last = r;
    return last === undefined ? undefined : Number(last - sent) / 1e6;
  });
}

/** One-way cost of the loopback itself: a bare WebSocket from the callers' process to this one, idle machine. */
async function measureLoopback(fleet: CallerFleet): Promise<number[]> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const delays: number[] = [];
  wss.on('connection', (ws) =>
    ws.on('message', (data: Buffer) => {
      const at = process.hrtime.bigint();
      delays.push(Number(at - BigInt(data.toString())) / 1e6);
    }),
  );
  const { port } = wss.address() as { port: number };
  try {
    await fleet.loopback({ url: `ws://127.0.0.1:${port}`, messages: 500, intervalMs: 5 });
  } finally {
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }
  return delays;
}

function printReport(results: AdapterFigures[], loopback: number[]): void {
  const rows: Record<string, string | number>[] = [];
  for (const kind of ['tts', 'stt'] as const) {
    const ofKind = results.filter((r) => r.adapter.kind === kind);
    const base = ofKind.find((r) => r.adapter.provider === 'openai');
    const baseP99 = base ? percentile(ascending(base.samplesMs), 99) : Number.NaN;
    for (const r of ofKind) {
      const sorted = ascending(r.samplesMs);
      const p99 = percentile(sorted, 99);
      rows.push({
        measure: kind === 'tts' ? 'TTS first byte -> caller' : 'STT caller last frame -> provider',
        adapter: r.adapter.provider,
        samples: sorted.length,
        unmatched: r.unmatched,
        'failed calls': r.failedCalls,
        unanswered: r.unanswered,
        'p50 ms': figure(percentile(sorted, 50), 2),
        'p99 ms': figure(p99, 2),
        'max ms': figure(sorted[sorted.length - 1] ?? Number.NaN, 2),
        'p99 / openai': figure(p99 / baseP99, 2),
        [`p99 < ${TARGET_MS} ms`]: Number.isFinite(p99) ? (p99 < TARGET_MS ? 'yes' : 'NO') : '-',
        'callers lag p99 ms': figure(r.loopDelayP99Ms, 1),
        'fakes lag p99 ms': figure(r.fakesLoopDelayP99Ms, 1),
        'voice CPU %': Math.round(r.voiceCpuShare * 100),
      });
    }
  }
  console.table(rows);
  const sorted = ascending(loopback);
  console.log(
    `bare loopback (callers' process -> this one, one WebSocket, idle): p50 ${figure(percentile(sorted, 50), 3)} ms, ` +
      `p99 ${figure(percentile(sorted, 99), 3)} ms over ${sorted.length} messages (in every figure above ` +
      'twice: each crosses two sockets, fake -> voice -> caller or caller -> voice -> fake)',
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
