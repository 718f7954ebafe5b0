import { Injectable, Logger, BeforeApplicationShutdown } from '@nestjs/common';
import { CallsConfig } from '../../config/calls.config';
import { CallTransferService } from '../../calls/call-transfer.service';
import { RecordingStore } from '../../recording/recording-store';
import { buildWav } from '../../recording/wav';
import { AgentBrain } from '../../voice/agent-brain.service';
import { TranscriptService } from '../../voice/transcript.service';
import { OutboundCall } from '../carrier-adapter';
import { SandboxCallbackClient } from './sandbox-callback-client';
import { SANDBOX_CALLBACK_EVENT, SandboxCallbackFields } from './sandbox-callback-fields';
import { ConversationEnd, SandboxConversation } from './sandbox-conversation';
import { sandboxOutcome } from './sandbox-outcomes';

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
  private stopping = false;

  constructor(
    private readonly config: CallsConfig,
    private readonly callbacks: SandboxCallbackClient,
    private readonly brain: AgentBrain,
    private readonly transcript: TranscriptService,
    private readonly transfers: CallTransferService,
    private readonly recordings: RecordingStore,
  ) {}

  start(call: OutboundCall, providerCallId: string): void {
    const job: Promise<void> = this.play(call, providerCallId)
      .catch((err) => this.logger.error(`sandbox call ${call.callId} stopped: ${(err as Error).stack ?? err}`))
      .finally(() => this.running.delete(job));
    this.running.add(job);
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
      await send({ CallStatus: 'failed', HangupCause: 'NETWORK_OUT_OF_ORDER', HangupSource: 'carrier', ErrorMessage: 'The carrier could not connect the call' });
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
        this.brain.reply({ partnerId: call.partnerId, agentId: call.agentId, prompt: call.agent.prompt }, history, text),
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

  private step(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.stopping ? 0 : this.config.SANDBOX_STEP_MS));
  }

  /** Lets calls in progress finish (fast-forwarded) so none is left without its final callback. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.running]);
  }
}
