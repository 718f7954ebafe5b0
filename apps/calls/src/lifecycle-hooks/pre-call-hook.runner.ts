import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreCallHookRequestBody } from '@vap/api';
import { DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { Call } from '../calls/entities/call.entity';
import { CallProgressService } from '../progress/call-progress.service';
import { EndReasons } from '../progress/end-reasons';
import { platformEndedCall } from '../progress/platform-ended-call';
import { integrationLogEntry } from '../integration-log/integration-log-entry';
import { LifecycleHook } from './entities/lifecycle-hook.entity';
import { HookClient } from './hook-client';
import { LifecycleHooksService } from './lifecycle-hooks.service';
import { mergeHookVariables, readPreCallAnswer } from './pre-call-answer';

/** Runs a database step of the hook again while the database cannot be reached (the start's grace). */
export type RetryWhileDown = <T>(step: () => Promise<T>) => Promise<T>;

/** What the pre-call hook made of a call: go on (its variables possibly changed), or it ended blocked. */
export type PreCallOutcome = { blocked: false } | { blocked: true; reason: string };

/**
 * Runs the agent's (or the account's) pre-call hook on a call admitted but not yet dialled or answered.
 * The request runs outside any transaction. A continue answer merges its variables into the call's (the
 * hook's win) before the dial; a block answer, or a failure under failure_action block, ends the call
 * `canceled` with disposition `blocked` through call progress, like any end of a never-connected call
 * (billed nothing, session.completed reported). Every request is logged (events.integration.request_logged).
 */
@Injectable()
export class PreCallHookRunner {
  private readonly logger = new Logger(PreCallHookRunner.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly hooks: LifecycleHooksService,
    private readonly client: HookClient,
    private readonly outbox: OutboxService,
    private readonly progress: CallProgressService,
  ) {}

  /**
   * Changes `call.variables` in place when the hook supplied some. The hook's lookup and its record are
   * tried again as `whileDown` says (never the request to the hook itself).
   */
  async run(
    call: Call,
    campaignId: string | null,
    whileDown: RetryWhileDown = (step) => step(),
  ): Promise<PreCallOutcome> {
    const hook = await whileDown(() => this.hooks.resolve(call.partnerId, call.agentId, 'pre_call'));
    if (!hook) return { blocked: false };
    const body: PreCallHookRequestBody = {
      event: 'pre_call',
      hook_id: hook.id,
      call: {
        call_id: call.id,
        session_id: call.sessionId,
        direction: call.direction,
        from_number: call.fromNumber,
        to_number: call.toNumber,
        agent_id: call.agentId,
        campaign_id: campaignId,
        client_reference_id: call.clientReferenceId,
        variables: call.variables,
      },
    };
    let secret: string;
    try {
      secret = this.hooks.secretOf(hook);
    } catch (err) {
      // A secret that no longer opens (SECRETS_KEY replaced) cannot sign: nothing is sent, failure_action applies.
      this.logger.error(`pre-call hook ${hook.id}: its secret does not open: ${(err as Error).message}`);
      const verdict = onFailure(hook, 'the hook secret could not be opened; rotate it');
      if (verdict.blocked) await this.block(call, verdict.reason);
      return verdict;
    }
    const exchange = await this.client.send({
      url: hook.url,
      secret,
      event: 'pre_call',
      hookId: hook.id,
      body,
      timeoutMs: hook.timeoutMs,
    });
    let failure = exchange.error;
    let variables: Record<string, unknown> | null = null;
    let verdict: PreCallOutcome = { blocked: false };
    if (exchange.outcome === 'success') {
      const answer = readPreCallAnswer(exchange.body ?? '');
      if ('invalid' in answer) failure = `invalid answer: ${answer.invalid}`;
      else if (answer.action === 'block')
        verdict = { blocked: true, reason: answer.reason ?? 'refused by the pre-call hook' };
      else if (Object.keys(answer.variables).length)
        variables = mergeHookVariables(call.variables, answer.variables);
    }
    if (failure !== null) {
      this.logger.warn(`pre-call hook ${hook.id} of call ${call.id}: ${failure} (${hook.failureAction})`);
      variables = null;
      verdict = onFailure(hook, failure);
    }
    const entry = integrationLogEntry(
      {
        partnerId: call.partnerId,
        kind: 'pre_call_hook',
        hookId: hook.id,
        callId: call.id,
        agentId: call.agentId,
        attempts: 1,
      },
      hook.url,
      exchange,
      failure,
    );
    await whileDown(() =>
      this.dataSource.transaction(async (em) => {
        if (variables)
          await em.query(`UPDATE ${tableOf(em, Call)} SET variables = $2::jsonb WHERE id = $1`, [
            call.id,
            JSON.stringify(variables),
          ]);
        await this.outbox.record(em, DomainEvents.integrationRequestLogged, call.partnerId, entry);
      }),
    );
    if (variables) call.variables = variables;
    if (verdict.blocked) await this.block(call, verdict.reason);
    return verdict;
  }

  private async block(call: Call, reason: string): Promise<void> {
    await this.progress.apply(
      { callId: call.id },
      platformEndedCall(call, {
        event: 'pre-call-hook',
        dedupeKey: 'pre-call-hook-blocked',
        status: 'canceled',
        hangupCause: 'PRE_CALL_HOOK_BLOCKED',
        disposition: 'blocked',
        endCallReason: EndReasons.preCallHookBlocked,
        errorMessage: `Blocked by the pre-call hook: ${reason}`,
      }),
    );
  }
}

/** What a failed pre-call hook does to the call: its failure_action. */
function onFailure(hook: LifecycleHook, failure: string): PreCallOutcome {
  return hook.failureAction === 'block'
    ? { blocked: true, reason: `pre-call hook failed: ${failure}` }
    : { blocked: false };
}
