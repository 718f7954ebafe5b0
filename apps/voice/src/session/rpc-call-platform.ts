import { randomUUID } from 'node:crypto';
import {
  CUSTOM_FUNCTION_INVOKE_MARGIN_MS,
  boundedFunctionTimeoutMs,
  CustomFunctionInvokeReply,
  CustomFunctionSnapshot,
  KnowledgeSearchReply,
  PartnerRequestCallContext,
  Subjects,
  TransferOutcome,
  VoiceCallContext,
  VoiceHandoffReply,
  VoiceSendSmsReply,
  VoiceToolCallRecord,
  VoiceToolCallRequest,
  VoiceTranscriptRequest,
} from '@vap/messages';
import { type RetryOptions, type RpcClient, untilAcknowledged } from '@vap/messaging';
import type { CallPlatform } from '../conversation';
import { Aborted } from '../conversation/provider-failure';
import { REPORT_RETRY_WINDOW_MS } from './report-retry';

/**
 * The platform as one call sees it, over NATS commands sent as the call's partner: the calls service records
 * lines and tool calls, transfers, opts out and hangs up through the carrier; the agents service searches the
 * agent's knowledge base and runs the partner's functions.
 */
export class RpcCallPlatform implements CallPlatform {
  /** This stream's id: its lines are numbered on it, so the calls service records a retried one once. */
  private readonly streamId = randomUUID();
  private seq = 0;
  /** Tool invocations are numbered on the stream too, apart from the lines. */
  private toolSeq = 0;
  /** The agent holding the call: the one it started with, until a handoff. */
  private agentId: string;

  constructor(
    private readonly rpc: RpcClient,
    private readonly context: VoiceCallContext,
    /** How a transcript line is retried (the conversation sends the next one once this one is through). */
    private readonly lineRetry: Omit<RetryOptions, 'deadline'> = {},
  ) {
    this.agentId = context.agentId;
  }

  /** Not retried: the calls service may have recorded it; a failure leaves the call with its agent. */
  async handOff(agentId: string, reason: string): Promise<VoiceHandoffReply> {
    const reply = await this.rpc.request(Subjects.calls.voiceHandoff, this.context.partnerId, {
      callId: this.context.callId,
      agentId,
      reason,
    });
    this.agentId = reply.agentId;
    return reply;
  }

  /**
   * Retried until the calls service has it, within REPORT_RETRY_WINDOW_MS of the line being said: lines the
   * calls service has not acknowledged are all this replica keeps of the transcript.
   */
  async transcript(line: Omit<VoiceTranscriptRequest, 'callId'>): Promise<void> {
    const request: VoiceTranscriptRequest = {
      ...line,
      callId: this.context.callId,
      streamId: this.streamId,
      seq: this.seq++,
    };
    await untilAcknowledged(
      () => this.rpc.request(Subjects.calls.voiceTranscript, this.context.partnerId, request),
      { ...this.lineRetry, deadline: Date.now() + REPORT_RETRY_WINDOW_MS },
    );
  }

  /** Retried like a transcript line: the session's tool calls and the variables they set live only there. */
  async toolCall(record: VoiceToolCallRecord): Promise<void> {
    const request: VoiceToolCallRequest = {
      ...record,
      callId: this.context.callId,
      streamId: this.streamId,
      seq: this.toolSeq++,
    };
    await untilAcknowledged(
      () => this.rpc.request(Subjects.calls.voiceToolCall, this.context.partnerId, request),
      { ...this.lineRetry, deadline: Date.now() + REPORT_RETRY_WINDOW_MS },
    );
  }

  /**
   * Not retried: the agents service may have sent the partner's request already. Waits the function's timeout
   * plus the agents service's margin (it answers `timeout` itself when the partner is slow), and no longer
   * than the call.
   */
  invokeCustomFunction(
    spec: CustomFunctionSnapshot,
    args: Record<string, unknown>,
    variables: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CustomFunctionInvokeReply> {
    if (signal.aborted) return Promise.reject(new Aborted());
    const browser = this.context.provider === 'browser';
    const context: PartnerRequestCallContext = {
      callId: this.context.callId,
      browserSessionId: browser ? this.context.callId : null,
      agentId: this.agentId,
      direction: browser ? 'browser' : this.context.direction,
      fromNumber: browser ? null : this.context.fromNumber,
      toNumber: browser ? null : this.context.toNumber,
      variables,
      customerId: this.context.customerId ?? null,
    };
    // One value bounds both: the request's deadline in the agents service and this wait.
    const timeoutMs = boundedFunctionTimeoutMs(spec.timeoutMs);
    const request = this.rpc.request(
      Subjects.agents.customFunctionInvoke,
      this.context.partnerId,
      { partnerId: this.context.partnerId, functionId: spec.id, arguments: args, context, timeoutMs },
      { timeoutMs: timeoutMs + CUSTOM_FUNCTION_INVOKE_MARGIN_MS },
    );
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new Aborted());
      signal.addEventListener('abort', onAbort, { once: true });
      request.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async transfer(to: string, reason: string): Promise<boolean> {
    const reply = await this.rpc.request(Subjects.calls.voiceTransfer, this.context.partnerId, {
      callId: this.context.callId,
      to,
      reason,
    });
    return reply.transferred;
  }

  async warmTransfer(to: string, reason: string, briefing: string): Promise<boolean> {
    const reply = await this.rpc.request(Subjects.calls.voiceWarmTransfer, this.context.partnerId, {
      callId: this.context.callId,
      to,
      reason,
      briefing,
    });
    return reply.started;
  }

  async withdrawTransfer(): Promise<TransferOutcome | null> {
    const reply = await this.rpc.request(Subjects.calls.voiceTransferDecision, this.context.partnerId, {
      callId: this.context.callId,
      accepted: false,
    });
    return reply.outcome;
  }

  async optOut(): Promise<void> {
    await this.rpc.request(Subjects.calls.voiceOptOut, this.context.partnerId, {
      callId: this.context.callId,
    });
  }

  async sendDigits(digits: string): Promise<boolean> {
    const reply = await this.rpc.request(Subjects.calls.voiceSendDtmf, this.context.partnerId, {
      callId: this.context.callId,
      digits,
    });
    return reply.sent;
  }

  async hangup(reason: string): Promise<void> {
    await this.rpc.request(Subjects.calls.voiceHangup, this.context.partnerId, {
      callId: this.context.callId,
      reason,
    });
  }

  sendSms(to: string | null, body: string): Promise<VoiceSendSmsReply> {
    return this.rpc.request(Subjects.calls.voiceSendSms, this.context.partnerId, {
      callId: this.context.callId,
      to,
      body,
    });
  }

  searchKnowledge(query: string, limit: number): Promise<KnowledgeSearchReply> {
    return this.rpc.request(Subjects.agents.knowledgeSearch, this.context.partnerId, {
      agentId: this.agentId,
      query,
      limit,
    });
  }
}
