import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ConnectionFailureReason } from '@vap/api';
import { isUuid } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { ConnectionHealthRow } from '../entities/connection-health.entity';
import { HealthEvent, HealthThrottle } from './health-throttle';

/** At most one health write per connection and kind in this window. */
export const HEALTH_WRITE_WINDOW_MS = 5_000;

/** A carrier's refusal in the words of the API: bad credentials, an unknown account, anything else. */
export function failureReasonOf(status: number): ConnectionFailureReason {
  if (status === 401 || status === 403) return 'credentials_rejected';
  if (status === 404) return 'account_not_found';
  return 'carrier_error';
}

/**
 * Upsert of one kind of event: only its own columns change, and never back to an older time (a trailing
 * write racing a newer one from another replica keeps the newer).
 */
function upsertOf(table: string, event: HealthEvent): { sql: string; params: unknown[] } {
  const into = (cols: string[], at: string) => ({
    sql: `INSERT INTO ${table} AS h (connection_id, ${cols.join(', ')})
          VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})
          ON CONFLICT (connection_id) DO UPDATE SET ${cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
          WHERE h.${at} IS NULL OR h.${at} <= EXCLUDED.${at}`,
  });
  switch (event.kind) {
    case 'success':
      return {
        ...into(['last_success_at', 'last_success_operation'], 'last_success_at'),
        params: [event.at, event.operation],
      };
    case 'failure':
      return {
        ...into(
          ['last_failure_at', 'last_failure_operation', 'last_failure_status', 'last_failure_reason'],
          'last_failure_at',
        ),
        params: [event.at, event.operation, event.status, event.reason],
      };
    case 'callback':
      return { ...into(['last_callback_at'], 'last_callback_at'), params: [event.at] };
  }
}

/** Writes one health event of a connection (one upsert). */
export async function writeHealthEvent(
  dataSource: DataSource,
  connectionId: string,
  event: HealthEvent,
): Promise<void> {
  const { sql, params } = upsertOf(tableOf(dataSource, ConnectionHealthRow), event);
  await dataSource.query(sql, [connectionId, ...params]);
}

/**
 * Records what the calls service sees of each carrier connection: REST calls that worked or failed (from
 * CarrierHttp) and verified callbacks (from callback ingest). Cheap on the hot path: nothing is awaited by
 * the caller, and writes are throttled per connection (HealthThrottle).
 */
@Injectable()
export class ConnectionHealthRecorder implements OnModuleDestroy {
  private readonly logger = new Logger(ConnectionHealthRecorder.name);
  private readonly throttle: HealthThrottle;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.throttle = new HealthThrottle(
      HEALTH_WRITE_WINDOW_MS,
      (connectionId, event) => writeHealthEvent(this.dataSource, connectionId, event),
      (err) => this.logger.warn(`connection health write failed: ${(err as Error).message}`),
    );
  }

  success(connectionId: string, operation: string): void {
    this.record(connectionId, { kind: 'success', at: new Date(), operation });
  }

  failure(connectionId: string, operation: string, status: number | null): void {
    const reason = status === null ? 'unreachable' : failureReasonOf(status);
    this.record(connectionId, { kind: 'failure', at: new Date(), operation, status, reason });
  }

  callback(connectionId: string): void {
    this.record(connectionId, { kind: 'callback', at: new Date() });
  }

  async onModuleDestroy(): Promise<void> {
    await this.throttle.close();
  }

  private record(connectionId: string, event: HealthEvent): void {
    if (isUuid(connectionId)) this.throttle.record(connectionId, event);
  }
}
