// What the call tells as it runs: its transcript lines and tool invocations to the calls service (in order, one
// after the other), and notices to the client that shows the call.

import {
  TOOL_CALLS_PER_CALL_MAX,
  type VoiceToolCallRecord,
  type VoiceTranscriptRequest,
} from '@vap/messages';
import type { MediaStreamNotice } from '@vap/media';
import type { CallRecord } from './call-platform';
import type { MediaTransport } from './conversation-contract';
import type { ToolInvocation } from './tools';

export interface CallTranscriptOptions {
  record: CallRecord;
  transport: MediaTransport;
  /** Media ms of the call so far (0 before the stream started). */
  nowMs(): number;
  /** The call ended elsewhere (terminate()): nothing more is recorded or told. */
  terminated(): boolean;
  /** The conversation has settled: nothing more is told. */
  settled(): boolean;
  onError?: (error: unknown, context: string) => void;
}

export class CallTranscript {
  private reports: Promise<void> = Promise.resolve();
  /** Tool invocations reported (TOOL_CALLS_PER_CALL_MAX). */
  private toolCallsReported = 0;

  constructor(private readonly options: CallTranscriptOptions) {}

  /** Resolves once every report so far has been taken (or failed). */
  get sent(): Promise<void> {
    return this.reports;
  }

  /** One line said on the call (a `typed` one the caller typed), told to the client and recorded. */
  line(
    line: Omit<VoiceTranscriptRequest, 'callId' | 'callSeconds'>,
    options: { typed?: boolean } = {},
  ): void {
    this.notify({
      type: 'transcript',
      role: line.role === 'bot' ? 'agent' : 'user',
      text: line.content,
      final: true,
      ...(options.typed ? { typed: true as const } : {}),
    });
    const callSeconds = Math.round(this.options.nowMs()) / 1000;
    this.then(() => this.options.record.transcript({ ...line, callSeconds }), 'transcript');
  }

  /** One tool invocation, in order with the lines (bounded per call). */
  toolCall(entry: ToolInvocation): void {
    if (this.options.terminated() || this.toolCallsReported >= TOOL_CALLS_PER_CALL_MAX) return;
    this.toolCallsReported++;
    const record: VoiceToolCallRecord = { ...entry, atMs: entry.atMs ?? Math.round(this.options.nowMs()) };
    this.then(() => this.options.record.toolCall(record), 'tool call');
  }

  /** Tells the transport's client (a browser shows it; carriers ignore it), never after the call ended. */
  notify(notice: MediaStreamNotice): void {
    if (this.options.terminated() || this.options.settled()) return;
    try {
      this.options.transport.notify?.(notice);
    } catch (error) {
      this.options.onError?.(error, 'notify');
    }
  }

  private then(report: () => Promise<void>, context: string): void {
    this.reports = this.reports
      .then(report)
      .catch((error: unknown) => this.options.onError?.(error, context));
  }
}
