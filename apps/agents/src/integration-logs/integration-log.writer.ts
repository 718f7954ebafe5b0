import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { INTEGRATION_LOG_EXCERPT_CHARS, IntegrationLogEntry } from '@vap/messages';
import { IntegrationLog } from './entities/integration-log.entity';

/** Cuts a body to the log's excerpt length (the log is for reading, not for replaying the request). */
export function excerpt(body: string | null): string | null {
  if (body === null) return null;
  return body.length > INTEGRATION_LOG_EXCERPT_CHARS ? body.slice(0, INTEGRATION_LOG_EXCERPT_CHARS) : body;
}

/**
 * Stores integration log entries. An entry is stored once by its id, so an event delivered twice (or a
 * request logged by its maker and again by a retry of the event) leaves one row.
 */
@Injectable()
export class IntegrationLogWriter {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `em`: the transaction to write in (an event consumer's, so the row commits with its inbox mark). */
  async record(entry: IntegrationLogEntry, em?: EntityManager): Promise<void> {
    await (em ?? this.dataSource.manager)
      .createQueryBuilder()
      .insert()
      .into(IntegrationLog)
      .values({
        id: entry.id,
        partnerId: entry.partnerId,
        kind: entry.kind,
        callId: entry.callId,
        browserSessionId: entry.browserSessionId,
        agentId: entry.agentId,
        functionId: entry.functionId,
        hookId: entry.hookId,
        method: entry.method,
        url: entry.url,
        requestHeaders: entry.requestHeaders,
        requestBody: excerpt(entry.requestBody),
        status: entry.status,
        responseBody: excerpt(entry.responseBody),
        outcome: entry.outcome,
        error: entry.error === null ? null : entry.error.slice(0, 1000),
        latencyMs: Math.max(0, Math.round(entry.latencyMs)),
        attempts: entry.attempts,
        startedAt: new Date(entry.startedAt),
      })
      .orIgnore()
      .execute();
  }
}
