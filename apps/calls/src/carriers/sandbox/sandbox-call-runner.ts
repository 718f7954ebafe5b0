import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PgListener } from '@vap/persistence';
import { CallsConfig } from '../../config/calls.config';
import { CallTransferService } from '../../calls/call-transfer.service';
import { interruptedEnd } from '../../lifecycle/interrupted-end';
import { CallProgressService } from '../../progress/call-progress.service';
import { RecordingStore } from '../../recording/recording-store';
import { buildWav } from '../../recording/wav';
import { AgentBrain } from '../../voice/agent-brain.service';
import { TranscriptService } from '../../voice/transcript.service';
import { OutboundCall } from '../carrier-adapter';
import { SandboxCallbackClient } from './sandbox-callback-client';
import { SANDBOX_CALLBACK_EVENT, SandboxCallbackFields } from './sandbox-callback-fields';
import { CallHangup, ConversationEnd, SandboxConversation } from './sandbox-conversation';
import { sandboxOutcome } from './sandbox-outcomes';

class ShutdownAbandon extends Error {}

/** Hang-up requests for sandbox calls, to whichever replica runs the call. */
const HANGUP_CHANNEL = 'calls_sandbox_hangup';

type Fields = Omit<SandboxCallbackFields, 'CallSid' | 'SequenceNumber' | 'Timestamp' | 'EventType'> & {
  EventType?: SandboxCallbackFields['EventType'];
};

/**
 * Plays one sandbox call in the background: raw status callbacks to the gateway, and when a human
 * answers, the conversation. Each step waits SANDBOX_STEP_MS so partners see the statuses move.
 */
@Injectable()
export class SandboxCallRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SandboxCallRunner.name);
  private readonly running = new Set<Promise<void>>();
  /**
   * The calls played here: answered or not, the call's clock at its last line, and a pending hang-up
   * reason when the platform asked to end one.
   */
  private readonly live = new Map<string, { hangup: string | null; answered: boolean; seconds: number }>();
  /** Wakers of the steps being waited on (by call), so a shutdown or hang-up does not wait out a step. */
  private readonly sleeping = new Map<() => void, string>();
  private readonly hangupListener: PgListener;
  private stopping = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly callbacks: SandboxCallbackClient,
    private readonly brain: AgentBrain,
    private readonly transcript: TranscriptService,
    private readonly transfers: CallTransferService,
    private readonly recordings: RecordingStore,
    private readonly progress: CallProgressService,
  ) {
    const options = dataSource.options as { url?: string; applicationName?: string };
    this.hangupListener = new PgListener({
      databaseUrl: options.url,
      channel: HANGUP_CHANNEL,
      applicationName: `${options.applicationName ?? 'calls'}:sandbox-hangup-listener`,
      label: 'sandbox hang-up',
      onNotification: (payload) => {
        try {
          const { callId, reason } = JSON.parse(payload ?? '{}') as { callId?: string; reason?: string };
          if (callId && reason) this.hangUpHere(callId, reason);
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

  start(call: OutboundCall, providerCallId: string): void {
    this.live.set(call.callId, { hangup: null, answered: false, seconds: 0 });
    const job: Promise<void> = this.play(call, providerCallId)
      .catch((err) =>
        err instanceof ShutdownAbandon
          ? this.abandon(call)
          : this.logger.error(`sandbox call ${call.callId} stopped: ${(err as Error).stack ?? err}`),
      )
      .finally(() => {
        this.running.delete(job);
        this.live.delete(call.callId);
      });
    this.running.add(job);
  }

  /**
   * Ends a sandbox call, as a carrier's hang-up API would: here when this replica plays it, else through
   * Postgres to the replica that does (a call whose replica is gone is ended by OrphanedCallReaper).
   */
  async hangup(callId: string, reason: string): Promise<void> {
    if (this.hangUpHere(callId, reason)) return;
    await this.dataSource.query('SELECT pg_notify($1, $2)', [
      HANGUP_CHANNEL,
      JSON.stringify({ callId, reason }),
    ]);
  }

  private hangUpHere(callId: string, reason: string): boolean {
    const call = this.live.get(callId);
    if (!call) return false;
    call.hangup = reason;
    for (const [wake, id] of this.sleeping) if (id === callId) wake();
    return true;
  }

  /**
   * This replica is going away and its simulated calls with it: they end now (in-process, as the gateway
   * may already be gone), answered time billed, which frees their slots; another replica finishes their
   * post-call.
   */
  private async abandon(call: OutboundCall): Promise<void> {
    const live = this.live.get(call.callId);
    const status = live?.answered ? 'in_progress' : 'pending';
    await this.progress
      .apply(
        { callId: call.callId },
        interruptedEnd({ provider: 'sandbox', status, seconds: live?.seconds ?? 0 }),
      )
      .catch((err) =>
        this.logger.error(`sandbox call ${call.callId} left open at shutdown: ${(err as Error).message}`),
      );
  }

  private async play(call: OutboundCall, sid: string): Promise<void> {
    const url = call.callbackUrl(SANDBOX_CALLBACK_EVENT);
    let sequence = 0;
    const send = (fields: Fields) =>
      this.callbacks.post(url, {
        CallSid: sid,
        SequenceNumber: String(++sequence),
        Timestamp: new Date().toISOString(),
        EventType: 'call-progress',
        ...fields,
      } as unknown as Record<string, string>);

    const outcome = sandboxOutcome(call.toNumber);
    const step = () => this.step(call.callId);
    try {
      await this.ring(call, outcome, send, step);
    } catch (err) {
      if (!(err instanceof CallHangup)) throw err;
      await send({ CallStatus: 'canceled', HangupSource: 'system', EndCallReason: err.reason });
      return;
    }
    if (outcome === 'failed' || outcome === 'busy' || outcome === 'no_answer') return;
    await send({ CallStatus: 'in-progress', AnsweredBy: outcome === 'voicemail' ? 'machine' : 'human' });
    const live = this.live.get(call.callId)!;
    live.answered = true;
    const end = await new SandboxConversation(call, call.variables, {
      reply: (history, text) =>
        this.brain.reply(
          { partnerId: call.partnerId, agentId: call.agentId, prompt: call.agent.prompt },
          history,
          text,
        ),
      say: (role, content, callSeconds) => {
        live.seconds = callSeconds;
        return this.transcript.append(call.callId, role, content, callSeconds);
      },
      transfer: (to) => this.transfers.transfer(call.callId, to, 'callee_requested_human'),
      hold: (phase, durationSecs) =>
        send({
          EventType: phase === 'start' ? 'hold-start' : 'hold-end',
          HoldKind: 'carrier_hold',
          ...(durationSecs !== null ? { HoldDuration: String(durationSecs) } : {}),
        }),
      step,
    }).run(outcome);
    await send({ CallStatus: 'completed', ...(await this.hangupFields(call, end)) });
  }

  /** The call up to the answer, or to its end when nobody answers. */
  private async ring(
    call: OutboundCall,
    outcome: ReturnType<typeof sandboxOutcome>,
    send: (fields: Fields) => Promise<void>,
    step: () => Promise<void>,
  ): Promise<void> {
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

  private async hangupFields(call: OutboundCall, end: ConversationEnd): Promise<Fields> {
    const fields: Fields = {
      CallDuration: String(end.durationSeconds),
      HangupCause: end.hangupCause,
      HangupSource: end.hangupSource,
      Disposition: end.disposition,
      EndCallReason: end.endCallReason,
    };
    if (call.agent.enable_recording) {
      fields.RecordingKey = await this.recordings.save(call.partnerId, call.callId, buildWav(end.segments));
      fields.RecordingDuration = String(end.durationSeconds);
    }
    return fields;
  }

  /**
   * Waits one step of a call. At shutdown it throws instead, so the call is abandoned rather than played
   * out; when the platform hangs the call up it throws CallHangup (once) so the call ends gracefully.
   */
  private async step(callId: string): Promise<void> {
    this.interrupt(callId);
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.config.SANDBOX_STEP_MS);
      this.sleeping.set(wake, callId);
    });
    this.interrupt(callId);
  }

  private interrupt(callId: string): void {
    if (this.stopping) throw new ShutdownAbandon();
    const call = this.live.get(callId);
    if (call?.hangup) {
      const reason = call.hangup;
      call.hangup = null;
      throw new CallHangup(reason);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const wake of [...this.sleeping.keys()]) wake();
    await Promise.allSettled([...this.running]);
    await this.hangupListener.stop();
  }
}
