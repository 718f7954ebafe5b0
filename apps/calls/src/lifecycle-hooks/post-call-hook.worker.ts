import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { LIFECYCLE_HOOK_LIMITS, PostCallHookRequestBody, PostCallHookResultDto } from '@vap/api';
import { DomainEvents, SessionCompletedData } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallsConfig } from '../config/calls.config';
import { CallQueueWorker, QueuedCall } from '../work-queue/call-work-queue';
import { LifecycleHook } from './entities/lifecycle-hook.entity';
import { HookExchange, integrationLogEntry } from '../integration-log/integration-log-entry';
import { HookClient } from './hook-client';
import { LifecycleHooksService } from './lifecycle-hooks.service';
import { POST_CALL_HOOK_JOBS, postCallHookBackoffSeconds } from './post-call-hook-queue';

interface QueuedPostCallHook extends QueuedCall {
  hook_id: string;
  payload: SessionCompletedData;
}

const CONCURRENCY = 8;

/**
 * Sends each completed session to its post-call hook: a 2xx stores the answer (an excerpt) on the session;
 * a failure is retried with backoff (2, 4, 8, 16 s) up to LIFECYCLE_HOOK_LIMITS.postCallMaxAttempts
 * requests, then the session's post_call_hook says failed. Runs after session.completed was recorded and
 * never holds it up. Every request is logged (events.integration.request_logged).
 */
@Injectable()
export class PostCallHookWorker extends CallQueueWorker<QueuedPostCallHook> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: CallsConfig,
    private readonly hooks: LifecycleHooksService,
    private readonly client: HookClient,
    private readonly outbox: OutboxService,
  ) {
    super(dataSource, POST_CALL_HOOK_JOBS, {
      label: 'post-call hook jobs',
      logger: PostCallHookWorker.name,
      pollMs: config.POST_CALL_POLL_MS,
      concurrency: CONCURRENCY,
    });
  }

  protected async run(job: QueuedPostCallHook): Promise<void> {
    try {
      await this.deliver(job);
    } catch (err) {
      // Not the partner's answer (that is an outcome) but this service's own trouble, e.g. the database:
      // the job is tried again like a failed request, and given up after the last attempt.
      const message = err instanceof Error ? err.message : String(err);
      this.logger.error(`post-call hook of call ${job.call_id} (attempt ${job.attempts}): ${message}`);
      const dead = job.attempts >= LIFECYCLE_HOOK_LIMITS.postCallMaxAttempts;
      await this.dataSource.query(
        `UPDATE ${tableOf(this.dataSource, 'post_call_hook_jobs')}
            SET status = $2, last_error = $3, run_after = now() + make_interval(secs => $4), updated_at = now()
          WHERE call_id = $1`,
        [
          job.call_id,
          dead ? 'dead' : 'queued',
          message.slice(0, 1000),
          postCallHookBackoffSeconds(job.attempts),
        ],
      );
    }
  }

  private async deliver(job: QueuedPostCallHook): Promise<void> {
    const hook = await this.dataSource.getRepository(LifecycleHook).findOne({ where: { id: job.hook_id } });
    const secret = hook?.enabled ? this.openSecret(hook) : null;
    if (!hook || secret === null) {
      // Deleted or disabled since the session completed, or a secret that no longer opens: nothing is sent.
      await this.finish(job, null, { status: 'failed', outcome: null, http_status: null, response: null });
      return;
    }
    const body: PostCallHookRequestBody = {
      event: 'post_call',
      hook_id: hook.id,
      session: job.payload as unknown as Record<string, unknown>,
    };
    const exchange = await this.client.send({
      url: hook.url,
      secret,
      event: 'post_call',
      hookId: hook.id,
      body,
      timeoutMs: hook.timeoutMs,
    });
    const entry = integrationLogEntry(
      {
        partnerId: hook.partnerId,
        kind: 'post_call_hook',
        hookId: hook.id,
        callId: job.call_id,
        agentId: job.payload.agent_id,
        attempts: job.attempts,
      },
      hook.url,
      exchange,
    );
    const result = {
      outcome: exchange.outcome,
      http_status: exchange.status,
      response: exchange.outcome === 'success' ? storedResponse(exchange) : null,
    };
    if (exchange.outcome === 'success') {
      await this.finish(job, entry, { status: 'delivered', ...result });
    } else if (job.attempts >= LIFECYCLE_HOOK_LIMITS.postCallMaxAttempts) {
      this.logger.warn(`post-call hook ${hook.id} of call ${job.call_id} failed for good: ${exchange.error}`);
      await this.finish(job, entry, { status: 'failed', ...result });
    } else {
      await this.dataSource.transaction(async (em) => {
        await this.setResult(em, job, { status: 'pending', ...result, completed_at: null });
        await em.query(
          `UPDATE ${tableOf(em, 'post_call_hook_jobs')}
              SET last_error = $2, run_after = now() + make_interval(secs => $3), updated_at = now()
            WHERE call_id = $1`,
          [job.call_id, (exchange.error ?? '').slice(0, 1000), postCallHookBackoffSeconds(job.attempts)],
        );
        await this.outbox.record(em, DomainEvents.integrationRequestLogged, hook.partnerId, entry);
      });
    }
  }

  private openSecret(hook: LifecycleHook): string | null {
    try {
      return this.hooks.secretOf(hook);
    } catch (err) {
      this.logger.error(`post-call hook ${hook.id}: its secret does not open: ${(err as Error).message}`);
      return null;
    }
  }

  private async finish(
    job: QueuedPostCallHook,
    entry: ReturnType<typeof integrationLogEntry> | null,
    result: Pick<PostCallHookResultDto, 'status' | 'outcome' | 'http_status' | 'response'>,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.setResult(em, job, { ...result, completed_at: new Date().toISOString() });
      await em.query(
        `UPDATE ${tableOf(em, 'post_call_hook_jobs')} SET status = $2, updated_at = now() WHERE call_id = $1`,
        [job.call_id, result.status === 'delivered' ? 'done' : 'dead'],
      );
      if (entry) await this.outbox.record(em, DomainEvents.integrationRequestLogged, entry.partnerId, entry);
    });
  }

  private async setResult(
    em: EntityManager,
    job: QueuedPostCallHook,
    result: Omit<PostCallHookResultDto, 'hook_id' | 'attempts'>,
  ): Promise<void> {
    const value: PostCallHookResultDto = { hook_id: job.hook_id, attempts: job.attempts, ...result };
    await em.query(`UPDATE ${tableOf(em, CallSession)} SET post_call_hook = $2::jsonb WHERE call_id = $1`, [
      job.call_id,
      JSON.stringify(value),
    ]);
  }
}

/** The answer as the session keeps it: its text, cut to the bound; null when empty. */
export function storedResponse(exchange: Pick<HookExchange, 'body'>): string | null {
  const text = exchange.body ?? '';
  if (text.trim() === '') return null;
  return text.slice(0, LIFECYCLE_HOOK_LIMITS.storedResponseMaxChars);
}
