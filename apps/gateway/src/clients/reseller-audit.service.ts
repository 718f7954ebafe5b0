import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { ClientAuditEntryDto, ClientAuditListDto, CursorQueryDto } from '@vap/api';
import { KeysetColumns, KeysetPager, tableOf } from '@vap/persistence';
import { GatewayConfig } from '../config/gateway.config';

/** One request a reseller's key made on behalf of a client. */
export interface OnBehalfRequest {
  resellerId: string;
  clientId: string;
  apiKeyId: string;
  method: string;
  path: string;
  status: number;
  requestId: string | null;
}

interface AuditRow extends KeysetColumns {
  id: string;
  api_key_id: string;
  method: string;
  path: string;
  status: number;
  request_id: string | null;
  created_at: Date;
}

const PRUNE_EVERY_MS = 3_600_000;
/** Paths are kept to this length: the route and its ids, never a body. */
const MAX_PATH = 500;

/**
 * The audit of requests made with X-On-Behalf-Of: written when the response is finished (so with its
 * status), listed per client to its reseller, and kept RESELLER_AUDIT_RETENTION_DAYS (every replica prunes,
 * which is harmless).
 */
@Injectable()
export class ResellerAuditService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ResellerAuditService.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.prune().catch((err: Error) =>
        this.logger.warn(`pruning the reseller audit failed: ${err.message}`),
      );
    }, PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Records the request made for the client once its response is finished (so with its status): a request
   * on its behalf, or one of the reseller's own routes that acts on the client's credentials (its API keys).
   */
  recordWhenFinished(
    req: Request & { id?: unknown },
    res: Response,
    who: Pick<OnBehalfRequest, 'resellerId' | 'clientId' | 'apiKeyId'>,
  ): void {
    const path = (req.originalUrl ?? req.url).split('?')[0];
    res.once('close', () => {
      this.record({
        ...who,
        method: req.method,
        path,
        status: res.statusCode,
        requestId: req.id === undefined ? null : String(req.id),
      }).catch((err: Error) =>
        this.logger.error(`could not audit ${req.method} ${path} for ${who.clientId}: ${err.message}`),
      );
    });
  }

  async record(entry: OnBehalfRequest): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO ${tableOf(this.dataSource, 'reseller_audit_entries')}
         (id, reseller_id, client_id, api_key_id, method, path, status, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        randomUUID(),
        entry.resellerId,
        entry.clientId,
        entry.apiKeyId,
        entry.method,
        entry.path.slice(0, MAX_PATH),
        entry.status,
        entry.requestId?.slice(0, 200) ?? null,
      ],
    );
  }

  /** The client's entries, newest first (the caller has checked that the client is the reseller's). */
  async list(resellerId: string, clientId: string, query: CursorQueryDto): Promise<ClientAuditListDto> {
    const pager = new KeysetPager(query, { idKind: 'uuid', direction: 'DESC' });
    const params: unknown[] = [resellerId, clientId];
    const where = ['reseller_id = $1', 'client_id = $2'];
    const after = pager.condition((value) => {
      params.push(value);
      return `$${params.length}`;
    });
    if (after) where.push(after);
    params.push(pager.fetch);
    const rows = (await this.dataSource.query(
      `SELECT id, api_key_id, method, path, status, request_id, created_at, ${pager.select}
         FROM ${tableOf(this.dataSource, 'reseller_audit_entries')}
        WHERE ${where.join(' AND ')}
        ORDER BY ${pager.orderBy} LIMIT $${params.length}`,
      params,
    )) as AuditRow[];
    const page = pager.page(rows);
    return { entries: page.rows.map(toAuditEntryDto), next_cursor: page.nextCursor };
  }

  async prune(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${tableOf(this.dataSource, 'reseller_audit_entries')}
        WHERE created_at < clock_timestamp() - make_interval(days => $1)`,
      [this.config.RESELLER_AUDIT_RETENTION_DAYS],
    );
  }
}

function toAuditEntryDto(r: AuditRow): ClientAuditEntryDto {
  return {
    id: r.id,
    api_key_id: r.api_key_id,
    method: r.method,
    path: r.path,
    status: r.status,
    request_id: r.request_id,
    created_at: r.created_at.toISOString(),
  };
}
