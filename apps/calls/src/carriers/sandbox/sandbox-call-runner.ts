import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PgListener } from '@vap/persistence';
import { CallsConfig } from '../../config/calls.config';
import { interruptedEnd } from '../../progress/interrupted-end';
import { CallProgressService } from '../../progress/call-progress.service';
import { OutboundCall } from '../carrier-adapter';
import { calleeScript } from './callee-scripts';
import { CalleeVoice, OfflineCalleeVoice } from './callee-voice';
import { SandboxCallbackClient } from './sandbox-callback-client';
import { SANDBOX_CALLBACK_EVENT, SandboxCallbackFields } from './sandbox-callback-fields';
import { SandboxOutcome, sandboxOutcome } from './sandbox-outcomes';
import { ALL_CALLEE_LINES } from './sandbox-script';
import { PhoneEnd, SandboxPhone } from './sandbox-phone';
import { MediaStreamLinks } from '../media-stream-links';

class ShutdownAbandon extends Error {}

/** The platform hung up before the phone answered. */
class RingingHangup extends Error {}

/** Requests to end or transfer sandbox calls, to whichever replica runs the call. */
const HANGUP_CHANNEL = 'calls_sandbox_hangup';

/** The sandbox's account id in `start` frames, like carrier_b's AccountSid. */
export const SANDBOX_ACCOUNT_SID = 'ACsandbox';

/**
 * After the media plane closes the stream, how long (real time) the phone waits for the platform's
 * hang-up request that usually comes with it, so the hang-up callback can carry its reason.
 */
const STREAM_CLOSE_GRACE_MS = 1_000;

/** Call time the callee spends with the human after a transfer, billed like the rest of the call. */
const TRANSFERRED_LEG_SECONDS = 2;

type Fields = Omit<SandboxCallbackFields, 'CallSid' | 'SequenceNumber' | 'Timestamp' | 'EventType'> & {
  EventType?: SandboxCallbackFields['EventType'];
};

/** What the platform asked of a live sandbox call. */
type PlatformRequest = { kind: 'hangup'; reason: string } | { kind: 'transfer'; to: string };

interface LiveCall {
  answered: boolean;
  phone: SandboxPhone | null;
  request: PlatformRequest | null;
  /** Wakes whatever the call is waiting on when a request arrives (a ringing step, the close grace). */
  wake: (() => void) | null;
}

/** An inbound sandbox call the platform answered with an agent; the phone is the caller. */
export interface InboundSandboxCall {
  callId: string;
  providerCallId: string;
  fromNumber: string;
  /** Where the call's callbacks go: `callbackUrl(event)`. */
  callbackUrl(event: string): string;
}

/**
 * Plays sandbox calls in the background: carrier-shaped status callbacks to the gateway while the call
 * rings (SANDBOX_STEP_MS apart), and once answered the simulated phone (SandboxPhone) on the call's media
 * stream until someone hangs up; the hang-up callback carries the call's media time in whole seconds.
 */
@Injectable()
export class SandboxCallRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SandboxCallRunner.name);
  private readonly running = new Set<Promise<void>>();
  private readonly live = new Map<string, LiveCall>();
  private readonly voice: CalleeVoice = new OfflineCalleeVoice();
  /** The callee's lines, synthesized once per process from the first sandbox call on (see prepareVoice). */
  private voicePrepared: Promise<void> | undefined;
  private readonly hangupListener: PgListener;
  private stopping = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly callbacks: SandboxCallbackClient,
    private readonly progress: CallProgressService,
    private readonly streams: MediaStreamLinks,
  ) {
    const options = dataSource.options as { url?: string; applicationName?: string };
    this.hangupListener = new PgListener({
      databaseUrl: options.url,
      channel: HANGUP_CHANNEL,
      applicationName: `${options.applicationName ?? 'calls'}:sandbox-hangup-listener`,
      label: 'sandbox hang-up',
      onNotification: (payload) => {
        try {
          const { callId, request } = JSON.parse(payload ?? '{}') as {
            callId?: string;
            request?: PlatformRequest;
          };
          if (callId && request) this.requestHere(callId, request);
        } catch {
          this.logger.warn(`unreadable sandbox hang-up request: ${payload}`);
        }
      },
      log: this.logger,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.hangupListener.start();
  }

  /** An outbound call: rings, then answers (or not) by the callee number's outcome. */
  start(call: OutboundCall, providerCallId: string): void {
    this.prepareVoice();
    this.track(call.callId, (live) => this.playOutbound(call, providerCallId, live));
  }

  /** An inbound call the platform has answered: the phone (the caller) streams at once. */
  startInbound(call: InboundSandboxCall): void {
    this.prepareVoice();
    this.track(call.callId, async (live) => {
      live.answered = true;
      const send = this.sender(call.callbackUrl(SANDBOX_CALLBACK_EVENT), call.providerCallId);
      await this.converse(call.callId, call.providerCallId, inboundOutcome(call.fromNumber), live, send);
    });
  }

  /**
   * Synthesizes every callee line in the background on the first sandbox call, while it rings and the
   * agent's intro plays: not at start, so a replica that never plays a sandbox call never runs the synthesizer.
   * A line not ready yet when its turn comes is synthesized then, as before.
   */
  private prepareVoice(): void {
    this.voicePrepared ??= this.voice.prepare(ALL_CALLEE_LINES).catch((err: Error) => {
      this.voicePrepared = undefined;
      this.logger.warn(`could not prepare the sandbox callee's lines: ${err.message}`);
    });
  }

  /**
   * Ends a sandbox call, as a carrier's hang-up API would: here when this replica plays it, else through
   * Postgres to the replica that does (a call whose replica is gone is ended by OrphanedCallReaper).
   */
  async hangup(callId: string, reason: string): Promise<void> {
    await this.request(callId, { kind: 'hangup', reason });
  }

  /**
   * Moves an answered call to a human, as a carrier's call redirect would: the media stream ends and the
   * callee talks to the human for a moment. False when this replica plays the call and it is not answered.
   */
  async transfer(callId: string, to: string): Promise<boolean> {
    const live = this.live.get(callId);
    if (live && !live.answered) return false;
    await this.request(callId, { kind: 'transfer', to });
    return true;
  }

  private async request(callId: string, request: PlatformRequest): Promise<void> {
    if (this.requestHere(callId, request)) return;
    await this.dataSource.query('SELECT pg_notify($1, $2)', [
      HANGUP_CHANNEL,
      JSON.stringify({ callId, request }),
    ]);
  }

  private requestHere(callId: string, request: PlatformRequest): boolean {
    const live = this.live.get(callId);
    if (!live) return false;
    // The first request decides how the call ends; a repeat changes nothing. A call still ringing has
    // nobody to transfer.
    if (live.request || (request.kind === 'transfer' && !live.answered)) return true;
    live.request = request;
    void live.phone?.disconnect();
    live.wake?.();
    return true;
  }

  private track(callId: string, play: (live: LiveCall) => Promise<void>): void {
    const live: LiveCall = { answered: false, phone: null, request: null, wake: null };
    this.live.set(callId, live);
    const job: Promise<void> = play(live)
      .catch((err) =>
        err instanceof ShutdownAbandon
          ? this.abandon(callId, live)
          : this.logger.error(`sandbox call ${callId} stopped: ${(err as Error).stack ?? err}`),
      )
      .finally(() => {
        this.running.delete(job);
        this.live.delete(callId);
      });
    this.running.add(job);
  }

  /**
   * This replica is going away and its simulated calls with it: they end now (in-process, as the gateway
   * may already be gone), answered time billed, which frees their slots; another replica finishes their
   * post-call.
   */
  private async abandon(callId: string, live: LiveCall): Promise<void> {
    const status = live.answered ? 'in_progress' : 'pending';
    const seconds = live.phone ? live.phone.elapsedMs / 1000 : 0;
    await this.progress
      .apply({ callId }, interruptedEnd({ provider: 'sandbox', status, seconds }))
      .catch((err) =>
        this.logger.error(`sandbox call ${callId} left open at shutdown: ${(err as Error).message}`),
      );
  }

  private sender(url: string, sid: string): (fields: Fields) => Promise<void> {
    let sequence = 0;
    return (fields) =>
      this.callbacks.post(url, {
        CallSid: sid,
        SequenceNumber: String(++sequence),
        Timestamp: new Date().toISOString(),
        EventType: 'call-progress',
        ...fields,
      } as unknown as Record<string, string>);
  }

  private async playOutbound(call: OutboundCall, sid: string, live: LiveCall): Promise<void> {
    const send = this.sender(call.callbackUrl(SANDBOX_CALLBACK_EVENT), sid);
    const outcome = sandboxOutcome(call.toNumber);
    try {
      await this.ring(live, outcome, send);
    } catch (err) {
      if (!(err instanceof RingingHangup)) throw err;
      const reason = live.request?.kind === 'hangup' ? live.request.reason : 'canceled';
      await send({ CallStatus: 'canceled', HangupSource: 'system', EndCallReason: reason });
      return;
    }
    if (outcome === 'failed' || outcome === 'busy' || outcome === 'no_answer') return;
    // The carrier's machine detection has its answer by the time the call is answered.
    await send({ CallStatus: 'in-progress', AnsweredBy: outcome === 'voicemail' ? 'machine' : 'human' });
    live.answered = true;
    await this.converse(call.callId, sid, outcome, live, send);
  }

  /** The answered call: the phone on the media stream, then the hang-up callback. */
  private async converse(
    callId: string,
    sid: string,
    outcome: SandboxOutcome,
    live: LiveCall,
    send: (fields: Fields) => Promise<void>,
  ): Promise<void> {
    this.checkStopping(live);
    const url = this.streams.streamUrl('sandbox', callId);
    let end: PhoneEnd;
    if (live.request) {
      end = { kind: 'disconnected', mediaMs: 0, spoke: false };
    } else {
      const phone = new SandboxPhone({
        url,
        callSid: sid,
        accountSid: SANDBOX_ACCOUNT_SID,
        customParameters: { callId },
        voice: this.voice,
        timeScale: this.config.MEDIA_TIME_SCALE,
        onError: (err) => this.logger.error(`sandbox phone of call ${callId}: ${err.stack ?? err}`),
      });
      live.phone = phone;
      end = await phone.run(
        calleeScript(outcome, {
          hold: (phase, durationSecs) =>
            send({
              EventType: phase === 'start' ? 'hold-start' : 'hold-end',
              HoldKind: 'carrier_hold',
              ...(durationSecs !== null ? { HoldDuration: String(durationSecs) } : {}),
            }),
        }),
      );
    }
    if (end.kind === 'stream_closed' && !live.request) await this.graceForRequest(live);
    this.checkStopping(live);
    if (end.kind === 'stream_failed') {
      this.logger.warn(`sandbox call ${callId}: media stream failed: ${end.error}`);
    }
    if (live.request?.kind === 'transfer') {
      await this.sleep(live, (TRANSFERRED_LEG_SECONDS * 1000) / this.config.MEDIA_TIME_SCALE);
    }
    await send({ CallStatus: 'completed', ...hangupFields(end, live.request) });
  }

  private checkStopping(live: LiveCall): void {
    // A call the platform already ended reports its end normally; the others are abandoned.
    if (this.stopping && !live.request) throw new ShutdownAbandon();
  }

  private async graceForRequest(live: LiveCall): Promise<void> {
    await this.sleep(live, STREAM_CLOSE_GRACE_MS);
  }

  /** The call up to the answer, or to its end when nobody answers. */
  private async ring(
    live: LiveCall,
    outcome: SandboxOutcome,
    send: (fields: Fields) => Promise<void>,
  ): Promise<void> {
    const step = () => this.ringStep(live);
    await step();
    await send({ CallStatus: 'initiated' });
    await step();
    if (outcome === 'failed') {
      await send({
        CallStatus: 'failed',
        HangupCause: 'NETWORK_OUT_OF_ORDER',
        HangupSource: 'carrier',
        ErrorMessage: 'The carrier could not connect the call',
      });
      return;
    }
    if (outcome === 'busy') {
      await send({ CallStatus: 'busy', HangupCause: 'USER_BUSY', HangupSource: 'callee' });
      return;
    }
    await send({ CallStatus: 'ringing' });
    await step();
    await step();
    if (outcome === 'no_answer') {
      await send({ CallStatus: 'no-answer', HangupCause: 'NO_ANSWER', HangupSource: 'carrier' });
    }
  }

  /** One SANDBOX_STEP_MS of ringing; throws at shutdown or when the platform hangs up meanwhile. */
  private async ringStep(live: LiveCall): Promise<void> {
    this.interruptRinging(live);
    await this.sleep(live, this.config.SANDBOX_STEP_MS);
    this.interruptRinging(live);
  }

  private interruptRinging(live: LiveCall): void {
    if (this.stopping) throw new ShutdownAbandon();
    if (live.request) throw new RingingHangup();
  }

  /** Real-time wait that a request for the call or a shutdown cuts short. */
  private sleep(live: LiveCall, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        if (live.wake === wake) live.wake = null;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      live.wake = wake;
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const live of this.live.values()) {
      void live.phone?.disconnect();
      live.wake?.();
    }
    await Promise.allSettled([...this.running]);
    await this.hangupListener.stop();
  }
}

/** The caller of an inbound sandbox call plays the outcomes that need an answered call; else a conversation. */
function inboundOutcome(fromNumber: string): SandboxOutcome {
  const outcome = sandboxOutcome(fromNumber);
  return ['hangup_no_speech', 'hold', 'long_talker', 'asks_for_human'].includes(outcome)
    ? outcome
    : 'conversation';
}

/** The hang-up callback's fields: who hung up and why, and the call's media time in whole seconds. */
export function hangupFields(end: PhoneEnd, request: PlatformRequest | null): Fields {
  const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));
  if (request?.kind === 'transfer') {
    return {
      CallDuration: seconds(end.mediaMs + TRANSFERRED_LEG_SECONDS * 1000),
      HangupCause: 'NORMAL_CLEARING',
      HangupSource: 'callee',
      Disposition: 'transferred',
      EndCallReason: 'transferred',
    };
  }
  const duration = { CallDuration: seconds(end.mediaMs), HangupCause: 'NORMAL_CLEARING' };
  if (request?.kind === 'hangup') {
    return { ...duration, HangupSource: 'system', EndCallReason: request.reason };
  }
  switch (end.kind) {
    case 'callee_hung_up':
      return {
        ...duration,
        HangupSource: 'callee',
        EndCallReason: 'callee_hung_up',
        ...(end.spoke ? {} : { Disposition: 'user_hangup_no_speech' }),
      };
    case 'stream_failed':
      return {
        ...duration,
        HangupCause: 'MEDIA_STREAM_FAILED',
        HangupSource: 'error',
        EndCallReason: 'media_stream_failed',
        ErrorMessage: `The media stream could not be kept open: ${end.error}`,
      };
    default:
      // The media plane closed the stream without asking for the hang-up: the platform ended the call.
      return { ...duration, HangupSource: 'system' };
  }
}
