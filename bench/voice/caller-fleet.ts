// The simulated callers run in a process of their own: the benchmark's main process also hosts the fake speech
// providers and the fake calls service, whose bursts of work (a synthesis streamed out, an upload parsed) would
// otherwise delay the callers' arrival timestamps and be counted as the platform's jitter. This process does
// nothing but carry the calls' media on the carrier clock.
import { fork, type ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sleep } from '@vap/testing';
import { CarrierClock } from './carrier-clock';
import { runScriptedCall, ScriptedCallResult } from './scripted-caller';
import { runSimulatedCall, SimulatedCallResult } from './simulated-caller';
import { callerAudio } from './speech-like-audio';
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
}

export interface FleetRoundResult {
  results: SimulatedCallResult[];
  /** The fleet's event-loop delay p99 over the round, ms: high values mean the callers themselves lagged. */
  loopDelayP99Ms: number;
  /** Periods the carrier clock missed whole during the round. */
  clockStalls: number;
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

type FleetRequest = { type: 'round'; round: FleetRound } | { type: 'scripted'; round: ScriptedFleetRound };
type FleetReply =
  { type: 'done'; result: FleetRoundResult | ScriptedFleetRoundResult } | { type: 'failed'; error: string };

// Sampled every millisecond: the pacing being measured is in milliseconds.
const LOOP_DELAY_RESOLUTION_MS = 1;

/** Runs one round of calls on `clock` in this process. */
export async function runFleetRound(round: FleetRound, clock: CarrierClock): Promise<FleetRoundResult> {
  const audio = callerAudio(1);
  return rampedRound(round.calls, round.rampMs, clock, (call, phase) =>
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
    }),
  );
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

  private request(request: FleetRequest): Promise<FleetRoundResult | ScriptedFleetRoundResult> {
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
    const round: Promise<FleetRoundResult | ScriptedFleetRoundResult> | undefined =
      request.type === 'round'
        ? runFleetRound(request.round, clock)
        : request.type === 'scripted'
          ? runScriptedFleetRound(request.round, clock)
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
