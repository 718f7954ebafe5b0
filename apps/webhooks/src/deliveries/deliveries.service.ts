import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ListWebhookDeliveriesQueryDto,
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookPayload,
  WebhookTestData,
} from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { KeysetColumns, KeysetPager, tableOf, wakeAfterCommit } from '@vap/persistence';
import { WebhookEndpoint } from '../endpoints/entities/webhook-endpoint.entity';
import { DELIVERIES_CHANNEL, DeliveryQueueRepository } from './delivery-queue.repository';
import { AttemptRow, DeliveryRow, toAttemptDto, toDeliveryDto } from './delivery-row';

const COLUMNS = `id, partner_id, endpoint_id, event_id, event_type, agent_id, body, status, attempts, next_attempt_at,
  last_status_code, last_error, created_at, updated_at, completed_at`;

/** Delivery history, manual retries and the test operation; every query is scoped to the partner. */
@Injectable()
export class DeliveriesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: DeliveryQueueRepository,
  ) {}

  async list(
    partnerId: string,
    endpointId: string,
    query: ListWebhookDeliveriesQueryDto,
  ): Promise<WebhookDeliveryListDto> {
    await this.ownEndpoint(partnerId, endpointId);
    const pager = new KeysetPager(query, { idKind: 'uuid', direction: 'DESC' });
    const where = ['partner_id = $1', 'endpoint_id = $2'];
    const params: unknown[] = [partnerId, endpointId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (query.status) add('status = ?', query.status);
    if (query.event_type) add('event_type = ?', query.event_type);
    if (query.since) add('created_at >= ?', new Date(query.since));
    if (query.until) add('created_at < ?', new Date(query.until));
    const after = pager.condition((value) => {
      params.push(value);
      return `$${params.length}`;
    });
    if (after) where.push(after);
    params.push(pager.fetch);
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS}, ${pager.select} FROM ${tableOf(this.dataSource, 'deliveries')} WHERE ${where.join(' AND ')}
       ORDER BY ${pager.orderBy} LIMIT $${params.length}`,
      params,
    )) as (DeliveryRow & KeysetColumns)[];
    const page = pager.page(rows);
    return { deliveries: page.rows.map(toDeliveryDto), next_cursor: page.nextCursor };
  }

  async get(partnerId: string, id: string): Promise<WebhookDeliveryDetailDto> {
    const row = await this.row(partnerId, id);
    const attempts = (await this.dataSource.query(
      `SELECT attempt, started_at, latency_ms, status_code, outcome, response_body, error
       FROM ${tableOf(this.dataSource, 'delivery_attempts')} WHERE delivery_id = $1 ORDER BY attempt`,
      [id],
    )) as AttemptRow[];
    return {
      ...toDeliveryDto(row),
      payload: JSON.parse(row.body) as Record<string, unknown>,
      attempt_history: attempts.map(toAttemptDto),
    };
  }

  /** Sends a finished delivery again (same id and body) with a fresh round of the retry schedule. */
  async retry(partnerId: string, id: string): Promise<WebhookDeliveryDto> {
    const [rows] = (await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'deliveries')}
       SET status = 'pending', next_attempt_at = now(), round_start = attempts, completed_at = NULL, updated_at = now()
       WHERE id = $1 AND partner_id = $2 AND status IN ('failed', 'succeeded')
       RETURNING ${COLUMNS}`,
      [id, partnerId],
    )) as [DeliveryRow[], number];
    if (!rows[0]) {
      await this.row(partnerId, id); // 404 when it is not the partner's
      throw new AppError(
        ErrorCode.INVALID_STATE,
        'The delivery is still queued or being sent; only finished deliveries can be retried',
      );
    }
    wakeAfterCommit(this.dataSource.manager, DELIVERIES_CHANNEL);
    return toDeliveryDto(rows[0]);
  }

  /** Queues webhook.test to this endpoint only, whatever its allowlist. */
  async sendTest(partnerId: string, endpointId: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.ownEndpoint(partnerId, endpointId);
    const payload: WebhookPayload<WebhookTestData> = {
      event: 'webhook.test',
      timestamp: new Date().toISOString(),
      data: { endpoint_id: endpoint.id, label: endpoint.label, message: 'This is a test delivery.' },
    };
    const [{ id: deliveryId }] = await this.dataSource.transaction((em) =>
      this.queue.enqueue(em, [
        {
          partnerId,
          endpointId,
          eventId: randomUUID(),
          eventType: 'webhook.test',
          agentId: endpoint.agentId,
          body: JSON.stringify(payload),
        },
      ]),
    );
    return toDeliveryDto(await this.row(partnerId, deliveryId));
  }

  private async ownEndpoint(partnerId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.dataSource.manager.findOneBy(WebhookEndpoint, { id, partnerId });
    if (!endpoint) throw AppError.notFound('Webhook endpoint');
    return endpoint;
  }

  private async row(partnerId: string, id: string): Promise<DeliveryRow> {
    const [row] = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM ${tableOf(this.dataSource, 'deliveries')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    )) as DeliveryRow[];
    if (!row) throw AppError.notFound('Webhook delivery');
    return row;
  }
}
