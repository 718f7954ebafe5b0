import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PostCallHookResultDto } from '@vap/api';
import {
  CallAnalysis,
  CallSegment,
  ExtractionResult,
  HoldSummary,
  ToolCallEntry,
  TranscriptEntry,
} from '@vap/messages';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

/** A raw carrier hold signal as received; the post-call pipeline turns them into the hold summary. */
export interface HoldSignal {
  phase: 'start' | 'end';
  kind: string;
  at: string;
  /** Length the carrier reported on an end signal; else the time between start and end counts. */
  durationSecs?: number | null;
}

@Entity({ name: 'call_sessions' })
export class CallSession {
  @PrimaryColumn({ name: 'call_id', type: 'uuid' })
  callId: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @Column('text')
  status: 'active' | 'processing' | 'completed' | 'failed';

  @Column({ type: 'jsonb' })
  transcript: TranscriptEntry[];

  /** The agents that held the call, one segment each, when it was handed off (empty until then). */
  @Column({ type: 'jsonb' })
  segments: CallSegment[];

  /** The conversation's tool invocations, in the order reported (calls.voice.tool_call). */
  @Column({ name: 'tool_calls', type: 'jsonb' })
  toolCalls: ToolCallEntry[];

  @Column({ name: 'hold_events', type: 'jsonb' })
  holdEvents: HoldSignal[];

  @Column({ type: 'jsonb', nullable: true })
  hold: HoldSummary | null;

  @Column({ type: 'jsonb', nullable: true })
  extraction: ExtractionResult | null;

  /** Post-call analysis (summary, success evaluation); null until post-call processing ran or when not answered. */
  @Column({ type: 'jsonb', nullable: true })
  analysis: CallAnalysis | null;

  /** The post-call hook's run for this session (its public shape); null when none applied. */
  @Column({ name: 'post_call_hook', type: 'jsonb', nullable: true })
  postCallHook: PostCallHookResultDto | null;

  @Column({ name: 'recording_key', type: 'text', nullable: true })
  recordingKey: string | null;

  /** live while the voice service streams the call's audio, ended once it reported the end; null: no stream. */
  @Column({ name: 'media_stream', type: 'text', nullable: true })
  mediaStream: 'live' | 'ended' | null;

  /** When the voice service reported the media stream's end. */
  @Column({ name: 'media_stream_ended_at', type: 'timestamptz', precision: 3, nullable: true })
  mediaStreamEndedAt: Date | null;

  /** The voice replica serving the media stream (its heartbeat id); its calls end when it is gone. */
  @Column({ name: 'voice_replica_id', type: 'text', nullable: true })
  voiceReplicaId: string | null;

  /** A recording still at the carrier (its URL), copied into blob storage after the call. */
  @Column({ name: 'recording_source_url', type: 'text', nullable: true })
  recordingSourceUrl: string | null;

  @Column({ name: 'recording_duration_secs', type: 'integer', nullable: true })
  recordingDurationSecs: number | null;

  @Column({ name: 'duration_seconds', type: 'integer' })
  durationSeconds: number;

  @Column({ name: 'credits_used_paise', type: 'integer' })
  creditsUsedPaise: number;

  @Column({ name: 'processing_complete', type: 'boolean' })
  processingComplete: boolean;

  @Column({ name: 'pipeline_completed_at', type: 'timestamptz', precision: 3, nullable: true })
  pipelineCompletedAt: Date | null;

  @Column({ name: 'started_at', type: 'timestamptz', precision: 3, nullable: true })
  startedAt: Date | null;

  @Column({ name: 'ended_at', type: 'timestamptz', precision: 3, nullable: true })
  endedAt: Date | null;
}

/** The session row every new call starts with, inbound or outbound: active, empty, nothing measured yet. */
export function newSession(call: { id: string; sessionId: string }): QueryDeepPartialEntity<CallSession> {
  return {
    callId: call.id,
    sessionId: call.sessionId,
    status: 'active',
    transcript: [],
    toolCalls: [],
    segments: [],
    holdEvents: [],
    hold: null,
    extraction: null,
    analysis: null,
    postCallHook: null,
    recordingKey: null,
    mediaStream: null,
    mediaStreamEndedAt: null,
    voiceReplicaId: null,
    recordingSourceUrl: null,
    recordingDurationSecs: null,
    durationSeconds: 0,
    creditsUsedPaise: 0,
    processingComplete: false,
    pipelineCompletedAt: null,
    startedAt: null,
    endedAt: null,
  };
}
