// The simulated callers run in a process of their own: the benchmark's main process also hosts the fake speech
// providers and the fake calls service, whose bursts of work (a synthesis streamed out, an upload parsed) would
// otherwise delay the callers' arrival timestamps and be counted as the platform's jitter. This process does
// nothing but carry the calls' media on the carrier clock.
import { fork, type ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { synthesizeOfflineSpeech } from '@vap/media';
import { sleep } from '@vap/testing';
import { CarrierClock } from './carrier-clock';
import { runScriptedCall, ScriptedCallResult } from './scripted-caller';
import { runSimulatedCall, SimulatedCallResult } from './simulated-caller';
import { callerAudio, callerAudioOf, CallerAudio } from './speech-like-audio';
import { planCall } from './turn-script';

export interface FleetCall {
  url: string;
  callId: string;
  /** A carrier_b call (default) or a browser session, which sends `origin` as its page's Origin header. */
  protocol?: 'carrier_b' | 'browser';
  origin?: string;
}

export interface FleetRound {
  calls: FleetCall[];
  /** The streams open evenly over this long, as a carrier's arrivals spread. */
  rampMs: number;
  turns: number;
  expectIntro: boolean;
  minAnswerFrames: number;
  /** Frames per carrier tick: the media clock's speed-up (see SimulatedCallOptions). Default 1. */
  framesPerTick?: number;
  /** Media seconds each call lasts at least, silent after its turns (see SimulatedCallOptions). */
  mediaSeconds?: number;
  /**
   * The caller says this text as the offline engine speaks it (what the fake speech providers' recognisers read
   * back), instead of a second of speech-like audio.
   */
  audioText?: string;
  /** See SimulatedCallOptions (default 15 s). */
  answerTimeoutMs?: number;
}

export interface FleetRoundResult {
  results: SimulatedCallResult[];
  /** The fleet's event-loop delay p99 over the round, ms: high values mean the callers themselves lagged. */
  loopDelayP99Ms: number;
  /** Periods the carrier clock missed whole during the round. */
  clockStalls: number;
  /**
   * process.hrtime.bigint() - performance.now() of the fleet process, in ns (decimal): turns its performance.now()
   * stamps into CLOCK_MONOTONIC, which every process on the machine shares.
   */
  monotonicOffsetNs: string;
}

/** A round of scripted calls (the turn-taking benchmark): each call says the turns of planCall(its index). */
export interface ScriptedFleetRound {
  calls: (FleetCall & { index: number })[];
  rampMs: number;
  turns: number;
  answerTimeoutMs?: number;
}

export interface ScriptedFleetRoundResult {
  results: ScriptedCallResult[];
  loopDelayP99Ms: number;
  clockStalls: number;
}

/**
 * Bare loopback: one WebSocket to `url` carrying `messages` text messages `intervalMs` apart, each its send time
 * (process.hrtime.bigint(), decimal ns), so the receiver measures the machine's own one-way cost.
 */
export interface LoopbackRound {
  url: string;
  messages: number;
  intervalMs: number;
}

type FleetRequest =
  | { type: 'round'; round: FleetRound }
  | { type: 'scripted'; round: ScriptedFleetRound }
  | { type: 'loopback'; round: LoopbackRound };
type FleetReply =
  | { type: 'done'; result: FleetRoundResult | ScriptedFleetRoundResult | { sent: number } }
  | { type: 'failed'; error: string };

/** process.hrtime.bigint() - performance.now() in ns: constant for a process (both read CLOCK_MONOTONIC). */
export function monotonicOffsetNs(): bigint {
  return process.hrtime.bigint() - BigInt(Math.round(performance.now() * 1e6));
}

/** A performance.now() stamp of a process with that offset, as CLOCK_MONOTONIC ns. */
export function monotonicNs(at: number, offsetNs: bigint): bigint {
  return offsetNs + BigInt(Math.round(at * 1e6));
}

const spokenAudio = new Map<string, Promise<CallerAudio>>();
function audioOf(text: string | undefined): Promise<CallerAudio> {
  if (text === undefined) return Promise.resolve(callerAudio(1));
  let audio = spokenAudio.get(text);
  if (!audio) spokenAudio.set(text, (audio = synthesizeOfflineSpeech(text).then(callerAudioOf)));
  return audio;
}

// Sampled every millisecond: the pacing being measured is in milliseconds.
const LOOP_DELAY_RESOLUTION_MS = 1;

/** Runs one round of calls on `clock` in this process. */
export async function runFleetRound(round: FleetRound, clock: CarrierClock): Promise<FleetRoundResult> {
  const audio = await audioOf(round.audioText);
  const result = await rampedRound(round.calls, round.rampMs, clock, (call, phase) =>
    runSimulatedCall({
      url: call.url,
      callId: call.callId,
      protocol: call.protocol,
      origin: call.origin,
      clock,
      phase,
      audio,
      turns: round.turns,
      expectIntro: round.expectIntro,
      minAnswerFrames: round.minAnswerFrames,
      framesPerTick: round.framesPerTick,
      mediaSeconds: round.mediaSeconds,
      answerTimeoutMs: round.answerTimeoutMs,
    }),
  );
  return { ...result, monotonicOffsetNs: monotonicOffsetNs().toString() };
}

/** Sends the loopback messages (see LoopbackRound) and closes. */
export async function runLoopback(round: LoopbackRound): Promise<{ sent: number }> {
  const socket = new WebSocket(round.url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let sent = 0;
  for (; sent < round.messages; sent++) {
    await sleep(round.intervalMs);
    socket.send(process.hrtime.bigint().toString());
  }
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.close(1000);
  });
  return { sent };
}

/** Runs one round of scripted calls on `clock` in this process. */
export function runScriptedFleetRound(
  round: ScriptedFleetRound,
  clock: CarrierClock,
): Promise<ScriptedFleetRoundResult> {
  return rampedRound(round.calls, round.rampMs, clock, (call, phase) =>
    runScriptedCall({
      url: call.url,
      callId: call.callId,
      callIndex: call.index,
      clock,
      phase,
      plan: planCall(call.index, round.turns),
      answerTimeoutMs: round.answerTimeoutMs,
    }),
  );
}

/** Starts the calls spread over rampMs, each on its own phase of the clock, and watches this process's lag. */
async function rampedRound<C, R>(
  calls: C[],
  rampMs: number,
  clock: CarrierClock,
  run: (call: C, phase: number) => Promise<R>,
): Promise<{ results: R[]; loopDelayP99Ms: number; clockStalls: number }> {
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  const stallsBefore = clock.stalls;
  loopDelay.enable();
  const started = performance.now();
  const results = await Promise.all(
    calls.map(async (call, i) => {
      await sleep(Math.max(0, started + (i * rampMs) / calls.length - performance.now()));
      return run(call, i % clock.phaseCount);
    }),
  );
  loopDelay.disable();
  return {
    results,
    // The histogram holds whole sampling intervals: the delay is what exceeds one.
    loopDelayP99Ms: Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_DELAY_RESOLUTION_MS),
    clockStalls: clock.stalls - stallsBefore,
  };
}

/** The fleet process, seen from the benchmark: one round at a time. */
export class CallerFleet {
  private constructor(private readonly child: ChildProcess) {}

  static start(): CallerFleet {
    const child = fork(__filename, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
    });
    return new CallerFleet(child);
  }

  run(round: FleetRound): Promise<FleetRoundResult> {
    return this.request({ type: 'round', round }) as Promise<FleetRoundResult>;
  }

  /** One round of scripted calls (the turn-taking benchmark). */
  runScripted(round: ScriptedFleetRound): Promise<ScriptedFleetRoundResult> {
    return this.request({ type: 'scripted', round }) as Promise<ScriptedFleetRoundResult>;
  }

  /** Bare loopback messages to a receiver (see LoopbackRound). */
  loopback(round: LoopbackRound): Promise<{ sent: number }> {
    return this.request({ type: 'loopback', round }) as Promise<{ sent: number }>;
  }

  /** The fleet process's id (to pin it to a core). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  private request(
    request: FleetRequest,
  ): Promise<FleetRoundResult | ScriptedFleetRoundResult | { sent: number }> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`caller fleet exited (${code})`));
      this.child.once('exit', onExit);
      this.child.once('message', (reply: FleetReply) => {
        this.child.off('exit', onExit);
        if (reply.type === 'done') resolve(reply.result);
        else reject(new Error(`caller fleet: ${reply.error}`));
      });
      this.child.send(request);
    });
  }

  close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.disconnect();
    });
  }
}

function serveFleet(): void {
  const clock = new CarrierClock();
  clock.start();
  process.on('disconnect', () => {
    clock.stop();
    process.exit(0);
  });
  process.on('message', (request: FleetRequest) => {
    const round: Promise<FleetRoundResult | ScriptedFleetRoundResult | { sent: number }> | undefined =
      request.type === 'round'
        ? runFleetRound(request.round, clock)
        : request.type === 'scripted'
          ? runScriptedFleetRound(request.round, clock)
          : request.type === 'loopback'
            ? runLoopback(request.round)
            : undefined;
    round?.then(
      (result) => process.send!({ type: 'done', result } satisfies FleetReply),
      (err: unknown) =>
        process.send!({
          type: 'failed',
          error: err instanceof Error ? err.message : String(err),
        } satisfies FleetReply),
    );
  });
}

if (require.main === module && process.send) serveFleet();
