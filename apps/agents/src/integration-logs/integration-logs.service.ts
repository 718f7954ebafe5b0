import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  IntegrationLogDto,
  IntegrationLogListDto,
  IntegrationLogSummaryDto,
  ListIntegrationLogsQueryDto,
} from '@vap/api';
import { AppError, IntegrationLogId } from '@vap/messages';
import { keysetPage } from '@vap/persistence';
import { IntegrationLog } from './entities/integration-log.entity';

/** Reading a partner's integration log. Every query is scoped by partner: another's entry is absent (404). */
@Injectable()
export class IntegrationLogsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(partnerId: string, query: ListIntegrationLogsQueryDto): Promise<IntegrationLogListDto> {
    const qb = this.dataSource
      .getRepository(IntegrationLog)
      .createQueryBuilder('l')
      .where('l.partner_id = :partnerId', { partnerId });
    if (query.kind) qb.andWhere('l.kind = :kind', { kind: query.kind });
    if (query.outcome) qb.andWhere('l.outcome = :outcome', { outcome: query.outcome });
    if (query.call_id) qb.andWhere('l.call_id = :callId', { callId: query.call_id });
    if (query.browser_session_id) {
      // Stored as the maker wrote it (a UUID in lower case); the filter may come in upper case.
      qb.andWhere('l.browser_session_id = :sessionId', { sessionId: query.browser_session_id.toLowerCase() });
    }
    if (query.agent_id) qb.andWhere('l.agent_id = :agentId', { agentId: query.agent_id });
    if (query.function_id) qb.andWhere('l.function_id = :functionId', { functionId: query.function_id });
    if (query.hook_id) qb.andWhere('l.hook_id = :hookId', { hookId: query.hook_id });
    if (query.created_after) qb.andWhere('l.started_at >= :after', { after: query.created_after });
    if (query.created_before) qb.andWhere('l.started_at < :before', { before: query.created_before });
    const page = await keysetPage(qb, query, { idKind: 'uuid', direction: 'DESC', time: 'started_at' });
    return { integration_logs: page.rows.map(toSummaryDto), next_cursor: page.nextCursor };
  }

  /** `id`: the public `ilog_` id; a malformed one names nothing (404). */
  async get(partnerId: string, id: string): Promise<IntegrationLogDto> {
    const uuid = IntegrationLogId.parse(id);
    const entry = uuid
      ? await this.dataSource.getRepository(IntegrationLog).findOne({ where: { id: uuid, partnerId } })
      : null;
    if (!entry) throw AppError.notFound('Integration log entry');
    return {
      ...toSummaryDto(entry),
      request_headers: entry.requestHeaders,
      request_body: entry.requestBody,
      response_body: entry.responseBody,
    };
  }
}

export function toSummaryDto(entry: IntegrationLog): IntegrationLogSummaryDto {
  return {
    id: IntegrationLogId.format(entry.id),
    kind: entry.kind,
    method: entry.method,
    url: entry.url,
    status: entry.status,
    outcome: entry.outcome,
    error: entry.error,
    latency_ms: entry.latencyMs,
    attempts: entry.attempts,
    call_id: entry.callId,
    browser_session_id: entry.browserSessionId,
    agent_id: entry.agentId,
    function_id: entry.functionId,
    hook_id: entry.hookId,
    started_at: entry.startedAt.toISOString(),
  };
}
