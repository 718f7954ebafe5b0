import { Injectable, Logger, BeforeApplicationShutdown } from '@nestjs/common';
import { CallsConfig } from '../../config/calls.config';
import { CallTransferService } from '../../calls/call-transfer.service';
import { CallProgressService } from '../../progress/call-progress.service';
import { RecordingStore } from '../../recording/recording-store';
import { buildWav } from '../../recording/wav';
import { AgentBrain } from '../../voice/agent-brain.service';
import { TranscriptService } from '../../voice/transcript.service';
import { OutboundCall } from '../carrier-adapter';
import { SandboxCallbackClient } from './sandbox-callback-client';
import { SANDBOX_CALLBACK_EVENT, SandboxCallbackFields } from './sandbox-callback-fields';
import { ConversationEnd, SandboxConversation } from './sandbox-conversation';
import { sandboxOutcome } from './sandbox-outcomes';

class ShutdownAbandon extends Error {}

type Fields = Omit<SandboxCallbackFields, 'CallSid' | 'SequenceNumber' | 'Timestamp' | 'EventType'> & {
  EventType?: SandboxCallbackFields['EventType'];
};

/**
 * Plays one sandbox call in the background: raw status callbacks to the gateway, and when a human
 * answers, the conversation. Each step waits SANDBOX_STEP_MS so partners see the statuses move.
 */
@Injectable()
export class SandboxCallRunner implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SandboxCallRunner.name);
  private readonly running = new Set<Promise<void>>();
  /** Wakers of the steps being waited on, so a shutdown does not wait out SANDBOX_STEP_MS. */
  private readonly sleeping = new Set<() => void>();
  private stopping = false;

  constructor(
    private readonly config: CallsConfig,
    private readonly callbacks: SandboxCallbackClient,
    private readonly brain: AgentBrain,
    private readonly transcript: TranscriptService,
    private readonly transfers: CallTransferService,
    private readonly recordings: RecordingStore,
    private readonly progress: CallProgressService,
  ) {}

  start(call: OutboundCall, providerCallId: string): void {
    const job: Promise<void> = this.play(call, providerCallId)
      .catch((err) =>
        err instanceof ShutdownAbandon
          ? this.abandon(call)
          : this.logger.error(`sandbox call ${call.callId} stopped: ${(err as Error).stack ?? err}`),
      )
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }

  /**
   * This replica is going away and its simulated calls with it: they end now as failed (in-process, as
   * the gateway may already be gone), which frees their slots; another replica finishes their post-call.
   */
  private async abandon(call: OutboundCall): Promise<void> {
    await this.progress
      .apply(
        { callId: call.callId },
        {
          provider: 'sandbox',
          kind: 'status',
          dedupeKey: 'sandbox-shutdown',
          providerStatus: 'failed',
          providerEvent: 'sandbox-shutdown',
          sequence: null,
          ended: true,
          occurredAt: new Date(),
          hangupSource: 'system',
          hangupCause: 'SANDBOX_SHUTDOWN',
          errorMessage: 'The sandbox carrier stopped during the call',
        },
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
    await this.step();
    await send({ CallStatus: 'initiated' });
    await this.step();
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
    await this.step();
    await this.step();
    if (outcome === 'no_answer') {
      await send({ CallStatus: 'no-answer', HangupCause: 'NO_ANSWER', HangupSource: 'carrier' });
      return;
    }
    await send({ CallStatus: 'in-progress', AnsweredBy: outcome === 'voicemail' ? 'machine' : 'human' });
    await this.step();
    const end = await new SandboxConversation(call, call.variables, {
      reply: (history, text) =>
        this.brain.reply(
          { partnerId: call.partnerId, agentId: call.agentId, prompt: call.agent.prompt },
          history,
          text,
        ),
      say: (role, content) => this.transcript.append(call.callId, role, content),
      transfer: (to) => this.transfers.transfer(call.callId, to, 'callee_requested_human'),
      hold: (phase, durationSecs) =>
        send({
          EventType: phase === 'start' ? 'hold-start' : 'hold-end',
          HoldKind: 'carrier_hold',
          ...(durationSecs !== null ? { HoldDuration: String(durationSecs) } : {}),
        }),
      step: () => this.step(),
    }).run(outcome);
    await send({ CallStatus: 'completed', ...(await this.hangupFields(call, end)) });
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

  /** Waits one step; at shutdown it throws instead, so the call is abandoned rather than played out. */
  private async step(): Promise<void> {
    if (this.stopping) throw new ShutdownAbandon();
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.config.SANDBOX_STEP_MS);
      this.sleeping.add(wake);
    });
    if (this.stopping) throw new ShutdownAbandon();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const wake of [...this.sleeping]) wake();
    await Promise.allSettled([...this.running]);
  }
}
