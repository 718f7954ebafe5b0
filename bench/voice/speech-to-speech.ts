/**
 * The platform's own time from a speech-to-speech provider's first audio to the first frame at the caller, per
 * client (OpenAI Realtime, Gemini Live), as a ratio to today's path measured in the same run: the transcriber,
 * model and voice chain, from the model's first text to the first frame at the caller.
 *
 * The built voice service runs as in the voice benchmark (run.ts: NATS of its own, the fake calls service, fake
 * STT and TTS servers that answer at once) with three agents: one on the deployment's default model (today's
 * path), one on OpenAI Realtime, one on Gemini Live (the fake agents service answers agents.model.plan with the
 * partner's key at this process's fakes). The fakes here stamp (performance.now()) the moment they hand a reply's
 * first piece to their socket: the chat server its first text (already a whole sentence, so the voice speaks it at
 * once), each realtime fake its first audio chunk; both realtime fakes send a reply's audio at once, as the
 * providers do (faster than real time). A simulated carrier_b caller in this process records when each agent frame
 * arrives. Per turn the figure is that first frame less the stamp: the provider's socket, the voice service's
 * parsing, its resampling (realtime 24 kHz -> 8 kHz) or its TTS request (the chain), the framing and the paced
 * clock, and the carrier's socket. The paths take turns call by call, so drift on a shared machine falls on all.
 *
 * Processes: the voice service (the measured one) on the last core, this one (fakes, caller) on core 0
 * (`taskset`; BENCH_PIN=0 leaves them be).
 *
 * Usage: node dist/bench/bench/voice/speech-to-speech.js
 * Settings: BENCH_ROUNDS (6 calls per path), BENCH_TURNS (10 per call), BENCH_WARMUP_ROUNDS (1, not reported),
 * BENCH_LOGS=1 prints the voice service's output.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import WebSocket, { WebSocketServer } from 'ws';
import { FRAME_MS } from '@vap/media';
import type { AgentModelSettings, ModelPlan, ModelPlanRequest, RpcReply, RpcRequest } from '@vap/messages';
import { freePort, ServiceHandle, sleep, startService, workspaceRoot } from '@vap/testing';
import { openBenchNats } from '../support/bench-nats';
import { printRatioTable } from '../support/ratio-table';
import { benchAgentSettings, benchCall, benchSpeechPlan } from './bench-call';
import { CarrierClock } from './carrier-clock';
import { pinningWanted, pinToCore, processTree } from './core-pinning';
import {
  startFakePlatformResponder,
  wireSubject,
  type FakePlatformResponder,
} from './fake-platform-responder';
import { startFakeSpeechProviders } from './fake-speech-providers';
import { runSimulatedCall } from './simulated-caller';
import { callerAudio, pcm16LeBytes, speechLikePcm } from './speech-like-audio';
import { benchVoiceEnv } from './voice-env';

const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const turns = Number(process.env.BENCH_TURNS ?? 10);
const warmupRounds = Number(process.env.BENCH_WARMUP_ROUNDS ?? 1);
const showLogs = process.env.BENCH_LOGS === '1';
/** Read before this process is pinned (the count then follows its affinity). */
const cores = availableParallelism();
const pin = pinningWanted(cores);
const KEY = 'bench-realtime-key';
/** Every reply is this long (the chain's TTS says as much, the realtime fakes send as much). */
const REPLY_SECONDS = 1;
const REPLY = 'Your order ships tomorrow morning. Is there anything else I can help with?';
/** The realtime fakes' voice activity detection: a caller quiet this long after speaking has ended the turn. */
const END_OF_TURN_MS = 300;
/** A 20 ms chunk at this RMS or more is the caller's speech (the caller's audio is near -15 dBFS). */
const SPEECH_RMS = 500;

type Path = 'today (chain)' | 'OpenAI Realtime' | 'Gemini Live';
const PATHS: Path[] = ['today (chain)', 'OpenAI Realtime', 'Gemini Live'];

/** When each fake handed a reply's first piece to its socket, in order. */
const stamps = new Map<Path, number[]>(PATHS.map((p) => [p, []]));

// The providers' fakes ----------------------------------------------------------------------------------------

/** OpenAI Chat Completions streamed: the first chunk is a whole sentence, stamped as it goes. */
function chatHandler(req: IncomingMessage, res: import('node:http').ServerResponse): void {
  req.resume();
  req.on('end', () => {
    const chunk = (content: string | null, finish: string | null = null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'bench-chat',
        choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
      })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const [first, ...rest] = REPLY.split(/(?<=\. )/);
    stamps.get('today (chain)')!.push(performance.now());
    res.write(chunk(first));
    setTimeout(() => {
      for (const piece of rest) res.write(chunk(piece));
      res.write(chunk(null, 'stop'));
      res.end('data: [DONE]\n\n');
    }, 5);
  });
}

/** Base64 PCM16 24 kHz chunks of 100 ms: the reply every realtime fake speaks. */
const REPLY_CHUNKS = (() => {
  const pcm = pcm16LeBytes(speechLikePcm(REPLY_SECONDS, 24_000, { seed: 5 }));
  const per = 2400 * 2;
  const chunks: string[] = [];
  for (let at = 0; at < pcm.length; at += per) chunks.push(pcm.subarray(at, at + per).toString('base64'));
  return chunks;
})();

/** Hears the end of each caller turn in PCM16 at `rate`: speech, then END_OF_TURN_MS of quiet. */
class TurnEnds {
  private speaking = false;
  private quietSamples = 0;

  constructor(private readonly rate: number) {}

  /** True when the chunk ended a turn. */
  push(base64: string): boolean {
    const bytes = Buffer.from(base64, 'base64');
    let sum = 0;
    for (let i = 0; i + 1 < bytes.length; i += 2) sum += bytes.readInt16LE(i) ** 2;
    const rms = Math.sqrt(sum / Math.max(1, bytes.length / 2));
    if (rms >= SPEECH_RMS) {
      this.speaking = true;
      this.quietSamples = 0;
      return false;
    }
    if (!this.speaking) return false;
    this.quietSamples += bytes.length / 2;
    if ((this.quietSamples * 1000) / this.rate < END_OF_TURN_MS) return false;
    this.speaking = false;
    return true;
  }
}

/** OpenAI Realtime (beta): the session, then a reply at each turn's end, its first audio stamped. */
function openAiRealtime(ws: WebSocket): void {
  const send = (event: Record<string, unknown>) => ws.send(JSON.stringify(event));
  const ears = new TurnEnds(24_000);
  let replies = 0;
  send({ type: 'session.created', session: { id: 'sess_bench' } });
  ws.on('message', (data) => {
    const event = JSON.parse(String(data)) as { type: string; audio?: string; session?: unknown };
    if (event.type === 'session.update') return send({ type: 'session.updated', session: event.session });
    if (event.type !== 'input_audio_buffer.append' || !event.audio || !ears.push(event.audio)) return;
    const id = `resp_${++replies}`;
    const item = `item_${replies}`;
    send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: 0, item_id: `in_${replies}` });
    send({ type: 'response.created', response: { id, status: 'in_progress', output: [] } });
    send({ type: 'response.output_item.added', response_id: id, item: { id: item, type: 'message' } });
    stamps.get('OpenAI Realtime')!.push(performance.now());
    for (const delta of REPLY_CHUNKS)
      send({ type: 'response.audio.delta', response_id: id, item_id: item, delta });
    send({ type: 'response.audio.done', response_id: id, item_id: item });
    send({ type: 'response.audio_transcript.done', response_id: id, item_id: item, transcript: REPLY });
    send({
      type: 'response.done',
      response: { id, status: 'completed', output: [], usage: { input_tokens: 120, output_tokens: 40 } },
    });
  });
}

/** Gemini Live: the setup, then a turn at each caller turn's end, its first audio stamped. */
function geminiLive(ws: WebSocket): void {
  const send = (message: Record<string, unknown>) => ws.send(Buffer.from(JSON.stringify(message)));
  const ears = new TurnEnds(16_000);
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      setup?: unknown;
      realtimeInput?: { audio?: { data?: string } };
    };
    if (message.setup) return send({ setupComplete: {} });
    const audio = message.realtimeInput?.audio?.data;
    if (!audio || !ears.push(audio)) return;
    stamps.get('Gemini Live')!.push(performance.now());
    for (const data of REPLY_CHUNKS)
      send({
        serverContent: { modelTurn: { parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data } }] } },
      });
    send({ serverContent: { outputTranscription: { text: REPLY } } });
    send({
      serverContent: { turnComplete: true },
      usageMetadata: { promptTokenCount: 120, responseTokenCount: 40 },
    });
  });
}

/** One server for the three fakes: chat over HTTP, the realtime sockets by path. */
async function startFakes(): Promise<{ url: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true });
  const server: Server = createServer(chatHandler);
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    wss.handleUpgrade(req, socket, head, (ws) =>
      path === '/v1/realtime' ? openAiRealtime(ws) : geminiLive(ws),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// The fake agents service's model plans ------------------------------------------------------------------------

/** agents.model.plan: each speech-to-speech agent's model, on the partner's key at the fakes. */
async function answerModelPlans(nc: NatsConnection, prefix: string, fakes: string): Promise<void> {
  nc.subscribe(wireSubject(prefix, 'agents.model.plan'), {
    callback: (err, msg) => {
      if (err) return;
      const request = JSON.parse(new TextDecoder().decode(msg.data)) as RpcRequest<ModelPlanRequest>;
      const model = request.data.model;
      const plan: ModelPlan = { models: [] };
      if (model && (model.provider === 'openai' || model.provider === 'google')) {
        plan.models.push({
          ...model,
          speechToSpeech: true,
          credential: {
            provider: model.provider,
            apiKey: KEY,
            baseUrl: model.provider === 'openai' ? `${fakes}/v1` : fakes,
            paidBy: 'account',
          },
        });
      }
      const reply: RpcReply<ModelPlan> = { ok: true, data: plan };
      msg.respond(new TextEncoder().encode(JSON.stringify(reply)));
    },
  });
  await nc.flush();
}

const MODELS: Record<Path, AgentModelSettings | null> = {
  'today (chain)': null,
  'OpenAI Realtime': { provider: 'openai', model: 'gpt-realtime' },
  'Gemini Live': { provider: 'google', model: 'gemini-live-2.5-flash-preview' },
};

// The run ------------------------------------------------------------------------------------------------------

interface RunDeps {
  responder: FakePlatformResponder;
  clock: CarrierClock;
  tokenKey: Buffer;
  publicUrl: string;
}

let placed = 0;

/** One call of `path` with `turns` caller turns; each answered turn's provider-to-caller time, ms. */
async function runCall(path: Path, deps: RunDeps): Promise<number[]> {
  const call = benchCall(
    placed++,
    { ...benchAgentSettings(null), model: MODELS[path] },
    deps.publicUrl,
    deps.tokenKey,
  );
  deps.responder.register(call.context);
  const pathStamps = stamps.get(path)!;
  const from = pathStamps.length;
  const result = await runSimulatedCall({
    url: call.streamUrl,
    callId: call.context.callId,
    clock: deps.clock,
    audio: callerAudio(1),
    turns,
    expectIntro: false,
    minAnswerFrames: Math.floor(((REPLY_SECONDS * 1000) / FRAME_MS) * 0.8),
  });
  deps.responder.forget(call.context.callId);
  if (result.error) throw new Error(`${path}: the call failed: ${result.error}`);
  const replies = pathStamps.slice(from);
  if (result.unanswered > 0 || replies.length !== turns)
    throw new Error(`${path}: ${result.unanswered} turns unanswered, ${replies.length} replies of ${turns}`);
  return replies.map((stamp, i) => {
    const first = result.frames.find((f) => f.speech && f.answer === i + 1);
    if (!first) throw new Error(`${path}: turn ${i + 1} has no agent frame`);
    return first.at - stamp;
  });
}

async function main(): Promise<void> {
  if (![rounds, turns].every((n) => Number.isInteger(n) && n > 0) || !Number.isInteger(warmupRounds))
    throw new Error(
      'BENCH_ROUNDS and BENCH_TURNS: positive whole numbers; BENCH_WARMUP_ROUNDS: a whole number',
    );
  const infra = await openBenchNats();
  const cleanups: (() => Promise<unknown>)[] = [() => infra.close()];
  let voice: ServiceHandle | undefined;
  if (pin) pinToCore(0, process.pid);
  try {
    const nc = await connect({ servers: infra.nats.url, name: 'bench-speech-to-speech' });
    cleanups.unshift(() => nc.drain());
    const responder = await startFakePlatformResponder(nc, infra.prefix, benchSpeechPlan);
    cleanups.unshift(() => responder.close());
    const fakes = await startFakes();
    cleanups.unshift(() => fakes.close());
    await answerModelPlans(nc, infra.prefix, fakes.url);
    const speech = await startFakeSpeechProviders({
      transcript: 'Where is my order',
      reply: REPLY,
      speechSeconds: REPLY_SECONDS,
    });
    cleanups.unshift(() => speech.close());
    const clock = new CarrierClock();
    clock.start();
    cleanups.unshift(async () => clock.stop());

    const tokenKey = randomBytes(32);
    const port = await freePort();
    voice = await startService('voice', {
      port,
      label: 'voice',
      env: {
        ...benchVoiceEnv(infra, speech, tokenKey, 10),
        // The model is this process's chat fake; the transcriber and the voice the speech fakes.
        LLM_BASE_URL: `${fakes.url}/v1`,
        MEDIA_PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      logFile: join(workspaceRoot(), '.data', 'logs', 'bench-speech-to-speech-voice.log'),
      prefixLogs: showLogs,
      readyTimeoutMs: 60_000,
    });
    if (pin) for (const pid of processTree(voice.pid)) pinToCore(cores - 1, pid);

    console.log(
      `speech-to-speech benchmark: provider's first audio (first text, for today's chain) -> first frame at the ` +
        `caller; ${rounds} calls of ${turns} turns per path after ${warmupRounds} unreported, the paths taking ` +
        `turns call by call; ${pin ? `voice on core ${cores - 1}, fakes and caller on core 0` : 'unpinned'}, ` +
        `${cores} cores, Node ${process.version}, load average ${loadavg()[0].toFixed(2)}`,
    );
    const deps = { responder, clock, tokenKey, publicUrl: `http://127.0.0.1:${port}` };
    const samples = new Map<Path, number[]>(PATHS.map((p) => [p, []]));
    for (let round = 0; round < warmupRounds + rounds; round++) {
      for (const path of PATHS) {
        const times = await runCall(path, deps);
        if (round >= warmupRounds) samples.get(path)!.push(...times);
      }
      // The calls' end reports and sockets settle before the next round.
      await sleep(200);
    }
    printReport(samples);
  } catch (err) {
    if (voice)
      console.error(`voice (pid ${voice.pid}) last output:\n  ${voice.recentOutput(30).join('\n  ')}`);
    throw err;
  } finally {
    await voice?.stop().catch(() => undefined);
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

function printReport(samples: Map<Path, number[]>): void {
  printRatioTable(new Map(PATHS.map((path) => [path, samples.get(path)!])), {
    bench: 'speech-to-speech first audio',
    column: 'path',
    digits: 2,
    tail: 90,
    latencyFigure: (path) => `${path} provider's first output -> first frame at the caller p50`,
    ratioFigure: (path) => `${path} p50 / today's chain`,
  });
}

main().catch((err) => {
  console.error(`speech-to-speech benchmark failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
