/**
 * The platform's own time in each model plugin between a provider's first token and the first sentence handed on
 * to the voice: a fake provider (in a process of its own) stamps the moment it hands the reply's first text chunk
 * to its socket; this process consumes the plugin's stream as the voice service's model round does (every delta
 * read, text pushed through a sentence splitter, usage and tool calls set aside) and stamps the moment the first
 * sentence is complete. The first text chunk is already a whole sentence, and the rest of the reply follows only
 * later, so the figure is the adapter's own work on one chunk (reading the socket, parsing the event, yielding the
 * delta) plus the loopback socket, nothing of the provider's pace.
 *
 * Each plugin is run against the fake of its own protocol (OpenAI's Chat Completions for openai, azure_openai, the
 * OpenAI-compatible hosts (groq stands for them: one factory) and a partner's custom server), and every figure is
 * given as a ratio to today's path, the deployment default (LLM_BASE_URL through createChatModel), measured in the
 * same run: the plugins take turns request by request, so drift on a shared machine falls on all alike.
 *
 * Processes: this one (the measured one) on core 0, the fake on core 1 (`taskset`; BENCH_PIN=0 leaves them be).
 * Stamps are CLOCK_MONOTONIC in both (process.hrtime.bigint()), which Linux shares across processes.
 *
 * Usage: node dist/bench/bench/llm-first-text.bench.js
 * Settings: BENCH_REQUESTS (1000 per plugin), BENCH_WARMUP (200 per plugin, not reported), BENCH_PIN (1).
 */
import { ChildProcess, fork } from 'node:child_process';
import { createServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import {
  ChatDelta,
  createChatModel,
  createPlannedModel,
  endCallTool,
  LanguageModel,
  searchKnowledgeBaseTool,
} from '@vap/llm';
import { chunk, usageChunk } from '@vap/llm/testing';
import type { ModelPlanEntry } from '@vap/messages';
import { printRatioTable } from './support/ratio-table';
import { pinningWanted, pinToCore } from './voice/core-pinning';

const requests = Number(process.env.BENCH_REQUESTS ?? 1000);
const warmup = Number(process.env.BENCH_WARMUP ?? 200);
/** Read before this process is pinned (the count then follows its affinity). */
const cores = availableParallelism();
const pin = pinningWanted(cores);
const KEY = 'bench-model-key';
const FIRST_SENTENCE = 'Your order ships tomorrow morning. ';
const REST = ['Is there ', 'anything else ', 'I can help with?'];
/** The rest of the reply follows this long after the first chunk, so the first is handled alone. */
const REST_AFTER_MS = 5;
/** The id of each request rides in its last user message: `turn <id>`. */
const TURN = /turn (\d+)$/;

// The fake provider (the child process) -----------------------------------------------------------------------

/** What the fake sends to the measuring process: the stamp of each request's first text chunk. */
interface StampMessage {
  stamps: [number, string][];
}

/** The fake: OpenAI Chat Completions streamed (any path: /v1, Azure deployments, a partner's base). */
async function runFake(): Promise<void> {
  const stamps = new Map<number, bigint>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as {
        messages: { role: string; content: string }[];
      };
      const id = Number(TURN.exec(body.messages[body.messages.length - 1].content)?.[1] ?? -1);
      answerOpenAi(res, (ns) => stamps.set(id, ns));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.on('message', (message: { collect?: boolean }) => {
    if (!message.collect) return;
    const out: StampMessage = { stamps: [...stamps].map(([id, ns]) => [id, ns.toString()]) };
    stamps.clear();
    process.send?.(out);
  });
  process.send?.({ port: (server.address() as AddressInfo).port });
}

function answerOpenAi(res: ServerResponse, stamp: (ns: bigint) => void): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(`data: ${chunk({ role: 'assistant', content: '' })}\n\n`);
  const first = `data: ${chunk({ content: FIRST_SENTENCE })}\n\n`;
  stamp(process.hrtime.bigint());
  res.write(first);
  setTimeout(() => {
    for (const piece of REST) res.write(`data: ${chunk({ content: piece })}\n\n`);
    res.write(`data: ${chunk({}, 'stop')}\n\n`);
    res.write(`data: ${usageChunk(120, 14)}\n\n`);
    res.end('data: [DONE]\n\n');
  }, REST_AFTER_MS);
}

// The measuring process ---------------------------------------------------------------------------------------

/** The sentence end the voice service's splitter looks for: . ! ? (closed by a quote or bracket) then whitespace. */
const SENTENCE_END = /[.!?…]+["')\]]*\s+|\n+/;

interface Plugin {
  name: string;
  model: LanguageModel;
}

function plugins(port: number): Plugin[] {
  const root = `http://127.0.0.1:${port}`;
  const entry = (e: Omit<ModelPlanEntry, 'speechToSpeech'>): LanguageModel =>
    createPlannedModel({ ...e, speechToSpeech: false }, 5000, { allowPrivateNetworks: true });
  return [
    {
      name: 'today (LLM_BASE_URL)',
      model: createChatModel({
        LLM_BASE_URL: `${root}/v1`,
        LLM_API_KEY: KEY,
        LLM_MODEL: 'bench-model',
        LLM_TIMEOUT_MS: 5000,
      }),
    },
    {
      name: 'openai',
      model: entry({
        provider: 'openai',
        model: 'gpt-4o-mini',
        credential: { provider: 'openai', apiKey: KEY, baseUrl: `${root}/v1`, paidBy: 'account' },
      }),
    },
    {
      name: 'azure_openai',
      model: entry({
        provider: 'azure_openai',
        model: 'bench-deployment',
        credential: {
          provider: 'azure_openai',
          apiKey: KEY,
          baseUrl: root,
          region: 'bench',
          paidBy: 'account',
        },
      }),
    },
    {
      name: 'groq (compatible hosts)',
      model: entry({
        provider: 'groq',
        model: 'llama-3.3-70b-versatile',
        credential: { provider: 'groq', apiKey: KEY, baseUrl: `${root}/v1`, paidBy: 'account' },
      }),
    },
    {
      name: 'custom',
      model: entry({
        provider: 'custom',
        model: 'partner-model',
        credential: {
          provider: 'custom',
          apiKey: KEY,
          baseUrl: `${root}/partner`,
          signingSecret: 'bench-signing-secret',
          paidBy: 'account',
        },
      }),
    },
  ];
}

/** One turn as the voice's model round consumes it; the first sentence's monotonic stamp. */
async function turn(model: LanguageModel, id: number): Promise<bigint> {
  let buffer = '';
  let firstSentenceAt: bigint | null = null;
  const deltas: AsyncIterable<ChatDelta> = model.stream({
    messages: [
      { role: 'system', content: 'You are the benchmark agent. Answer in one or two short sentences.' },
      { role: 'user', content: `Where is my order? turn ${id}` },
    ],
    tools: [endCallTool(), searchKnowledgeBaseTool()],
    temperature: 0.5,
    maxTokens: 200,
  });
  for await (const delta of deltas) {
    if (delta.type !== 'text' || firstSentenceAt !== null) continue;
    buffer += delta.text;
    if (SENTENCE_END.test(buffer)) firstSentenceAt = process.hrtime.bigint();
  }
  if (firstSentenceAt === null) throw new Error(`turn ${id}: no sentence came`);
  return firstSentenceAt;
}

function once<T>(child: ChildProcess, pick: (message: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the fake provider exited (${code})`));
    const onMessage = (message: unknown) => {
      const value = pick(message);
      if (value === undefined) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(value);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function main(): Promise<void> {
  if (!Number.isInteger(requests) || requests <= 0 || !Number.isInteger(warmup) || warmup < 0)
    throw new Error('BENCH_REQUESTS: a positive whole number; BENCH_WARMUP: a whole number');
  const child = fork(__filename, ['--fake'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const port = await once(child, (m) => (m as { port?: number }).port);
    if (pin) {
      pinToCore(0, process.pid);
      pinToCore(1, child.pid ?? 0);
    }
    const measured = plugins(port);
    console.log(
      `model plugins, first token -> first sentence: ${requests} turns per plugin after ${warmup} unreported, ` +
        `the plugins taking turns; ${pin ? 'this process on core 0, the fake on core 1' : 'unpinned'}, ` +
        `${cores} cores, Node ${process.version}, load average ${loadavg()[0].toFixed(2)}`,
    );
    const samples = new Map<string, number[]>(measured.map((p) => [p.name, []]));
    let id = 0;
    for (let round = 0; round < warmup + requests; round++) {
      const sent: { plugin: string; id: number; at: bigint }[] = [];
      for (const plugin of measured) {
        const turnId = id++;
        sent.push({ plugin: plugin.name, id: turnId, at: await turn(plugin.model, turnId) });
      }
      child.send({ collect: true });
      const stamps = new Map(
        (await once(child, (m) => (m as StampMessage).stamps)).map(([k, ns]) => [k, BigInt(ns)]),
      );
      if (round < warmup) continue;
      for (const s of sent) {
        const firstToken = stamps.get(s.id);
        if (firstToken === undefined) throw new Error(`turn ${s.id}: the fake has no stamp`);
        samples.get(s.plugin)?.push(Number(s.at - firstToken) / 1e6);
      }
    }
    printReport(samples);
  } finally {
    child.kill();
  }
}

function printReport(samples: Map<string, number[]>): void {
  printRatioTable(samples, {
    bench: 'llm-first-text',
    column: 'plugin',
    digits: 3,
    tail: 99,
    latencyFigure: (plugin) => `${plugin} first token -> first sentence p50`,
    ratioFigure: (plugin) => `${plugin} p50 / today's path`,
  });
}

if (process.argv[2] === '--fake') {
  void runFake();
} else {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
