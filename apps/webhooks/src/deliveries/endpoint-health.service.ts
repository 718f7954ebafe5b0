import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { AgentFlagService } from '../agent-flag/agent-flag.service';
import { lockScope } from '../common/scope-lock';
import { parseDuration } from '../config/duration';
import { WebhooksConfig } from '../config/webhooks.config';

export const AUTO_DISABLED_REASON = 'auto_disabled';

/**
 * last_delivery_at / last_delivery_status and the failure streak of an endpoint. An endpoint whose attempts
 * have kept failing, with no success, for WEBHOOK_AUTO_DISABLE_AFTER is disabled (judged by time, not by a
 * count, so a busy endpoint and a quiet one are treated alike), and the fan-out flag rule then applies.
 */
@Injectable()
export class EndpointHealthService {
  private readonly disableAfterMs: number;
  /** When this replica last wrote a success per endpoint: skips even the no-op UPDATE within a second. */
  private readonly lastSuccessWrite = new Map<string, number>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly flags: AgentFlagService,
    config: WebhooksConfig,
  ) {
    this.disableAfterMs = parseDuration(config.WEBHOOK_AUTO_DISABLE_AFTER) ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * After an attempt; true when the failure streak has outlasted the window. A success only writes when it
   * changes something or the last write is a second old: under load thousands of deliveries to one endpoint
   * would otherwise queue on its row lock.
   */
  async record(endpointId: string, succeeded: boolean): Promise<boolean> {
    if (succeeded) {
      const now = Date.now();
      if (now - (this.lastSuccessWrite.get(endpointId) ?? 0) < 1000) return false;
      this.lastSuccessWrite.set(endpointId, now);
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, 'endpoints')} SET last_delivery_at = now(), last_delivery_status = 'succeeded', failing_since = NULL
         WHERE id = $1 AND (last_delivery_status IS DISTINCT FROM 'succeeded' OR failing_since IS NOT NULL
                            OR last_delivery_at IS NULL OR last_delivery_at < now() - interval '1 second')`,
        [endpointId],
      );
      return false;
    }
    this.lastSuccessWrite.delete(endpointId);
    const [rows] = (await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'endpoints')}
       SET last_delivery_at = now(), last_delivery_status = 'failed', failing_since = COALESCE(failing_since, now())
       WHERE id = $1
       RETURNING enabled, failing_since <= now() - $2 * interval '1 millisecond' AS expired`,
      [endpointId, this.disableAfterMs],
    )) as [{ enabled: boolean; expired: boolean }[], number];
    return !!rows[0]?.enabled && !!rows[0]?.expired;
  }

  /** Disables an endpoint that kept failing, in a transaction of its own (scope lock first, as everywhere). */
  async autoDisable(partnerId: string, endpointId: string): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const [found] = (await em.query(`SELECT agent_id FROM ${tableOf(em, 'endpoints')} WHERE id = $1`, [
        endpointId,
      ])) as {
        agent_id: string | null;
      }[];
      if (!found) return false;
      await lockScope(em, partnerId, found.agent_id);
      const [, count] = (await em.query(
        `UPDATE ${tableOf(em, 'endpoints')} SET enabled = false, disabled_reason = $2, updated_at = now()
         WHERE id = $1 AND enabled AND failing_since <= now() - $3 * interval '1 millisecond'`,
        [endpointId, AUTO_DISABLED_REASON, this.disableAfterMs],
      )) as [unknown, number];
      if (count === 1 && found.agent_id) await this.flags.flipBackIfOrphaned(em, partnerId, found.agent_id);
      return count === 1;
    });
  }
}
