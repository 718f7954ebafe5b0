import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { IntegrationOutcome, IntegrationRequestKind } from '@vap/messages';

/** One request made to a partner's systems (IntegrationLogEntry), as the partner reads it back. */
@Entity({ name: 'integration_logs' })
@Index('integration_logs_partner_started', ['partnerId', 'startedAt', 'id'])
export class IntegrationLog {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  kind: IntegrationRequestKind;

  @Column({ name: 'call_id', type: 'uuid', nullable: true })
  callId: string | null;

  @Column({ name: 'browser_session_id', type: 'text', nullable: true })
  browserSessionId: string | null;

  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  @Column({ name: 'function_id', type: 'text', nullable: true })
  functionId: string | null;

  @Column({ name: 'hook_id', type: 'text', nullable: true })
  hookId: string | null;

  @Column('text')
  method: string;

  @Column('text')
  url: string;

  @Column({ name: 'request_headers', type: 'jsonb' })
  requestHeaders: Record<string, string>;

  @Column({ name: 'request_body', type: 'text', nullable: true })
  requestBody: string | null;

  @Column({ type: 'int', nullable: true })
  status: number | null;

  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @Column('text')
  outcome: IntegrationOutcome;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'latency_ms', type: 'int' })
  latencyMs: number;

  @Column('int')
  attempts: number;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;
}
