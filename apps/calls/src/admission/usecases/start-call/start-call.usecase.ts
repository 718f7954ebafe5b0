import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { StartCallCommand, StartCallDto, StartCallResult } from '@vap/api';
import {
  AgentForCall,
  AppError,
  DomainEvents,
  ErrorCode,
  minimumStartBalancePaise,
  PartnerContext,
  Subjects,
} from '@vap/messages';
import { OutboxService, RpcClient } from '@vap/messaging';
import { CallsConfig } from '../../../config/calls.config';
import { ContactPolicy, DialPermit, PolicyStop } from '../../../telephony/contact-policy/contact-policy';
import { BalanceGuard } from '../../../balance-guard/balance-guard.service';
import { PhoneNumber } from '../../../telephony/phone-numbers/entities/phone-number.entity';
import { statusUpdatedData } from '../../../progress/status-event';
import { CallDialer } from './call-dialer';
import { CallsQueryService } from '../../../calls/calls-query.service';
import { Call, newCall } from '../../../calls/entities/call.entity';
import { CallSession, newSession } from '../../../calls/entities/call-session.entity';
import { pricePerMinutePaise } from '../../../charges/call-charges';
import { FromNumberResolver } from './from-number.resolver';
import { PreCallHookRunner } from '../../../lifecycle-hooks/pre-call-hook.runner';
import {
  accountConcurrency,
  effectiveConcurrencyLimit,
  lockActiveCalls,
  lockDialTarget,
} from '../../../partners/partner-lock';
import { assertPoolRoom, lockResellerPool } from '../../../partners/reseller-pool';
import { bindKey, callOfKey, splitStartCommand, StartCallKey } from '../../start-call-keys';

/**
 * POST /calls/start: checks the agent (agents service), the balance snapshot and the caller ID, then
 * admits the call under the partner's concurrency limit, runs the pre-call hook and hands it to the carrier. With an
 * Idempotency-Key the key is bound to the call in the admitting transaction, so a retry with the same key
 * and body gets that call back (even while it is still being dialled) instead of a second dial. A start that
 * fails after the admission leaves the call to PlacementRecovery: a replay returns it as it is, and it is
 * either placed (its carrier id found again) or ended failed within seconds.
 */
@Injectable()
export class StartCall {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly rpc: RpcClient,
    private readonly outbox: OutboxService,
    private readonly numbers: FromNumberResolver,
    private readonly dialer: CallDialer,
    private readonly calls: CallsQueryService,
    private readonly balance: BalanceGuard,
    private readonly policy: ContactPolicy,
    private readonly preCall: PreCallHookRunner,
  ) {}

  async execute(partner: PartnerContext, command: StartCallCommand): Promise<StartCallResult> {
    const { input, key, origin } = splitStartCommand(command);
    const earlier = key ? await callOfKey(this.dataSource.manager, partner.id, key) : null;
    if (earlier) return this.replay(partner, earlier);
    const minimum = minimumStartBalancePaise(pricePerMinutePaise('standard', partner, this.config));
    // The checks before the admission read independent things, so they are asked at once; their verdicts
    // are taken in this order, as if asked one by one, and the first refusal answers without waiting for
    // the later checks. First the contact policy: a listed number, or one outside its calling window, is
    // refused and logged (the list is probed again and the frequency caps counted in the admission below).
    const checks = {
      permit: this.policy.check(partner.id, input.to_number, origin),
      agent: this.rpc.request(Subjects.agents.agentForCall, partner, { id: input.agent_id }),
      affordable: this.balance.assertCanStart(partner, minimum),
      from: this.numbers.resolve(partner.id, input),
    };
    // A check that goes unawaited after an earlier refusal must not be an unhandled rejection.
    for (const check of Object.values(checks)) check.catch(() => undefined);
    const permit = await checks.permit;
    const agent = await checks.agent;
    if (partner.balancePaise < minimum) {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        `Insufficient balance: starting a call needs at least INR ${(minimum / 100).toFixed(2)} (one 30-second call)`,
      );
    }
    await checks.affordable;
    const from = await checks.from;
    const adapter = this.dialer.carrierFor(from.provider);
    const admitted = await this.admit(partner, agent, from, input, key, permit, origin?.campaign_id ?? null);
    if (typeof admitted === 'string') return this.replay(partner, admitted);
    if ('stop' in admitted) return this.policy.stop(admitted.stop);
    // After the admission, so the hook names a real call and a retry with the same key finds it; the
    // pending call holds its concurrency slot during the hook (at most the hook's timeout). A blocked call
    // has ended (canceled, disposition blocked) and is answered like any other, undialled.
    // A database restart meanwhile delays the hook and the dial within the placement grace; never fails the call.
    const hooked = await this.preCall.run(admitted, origin?.campaign_id ?? null, (step) =>
      this.dialer.whileDatabaseDown(admitted, step),
    );
    if (!hooked.blocked) await this.dialer.dial(adapter, admitted);
    return { call: await this.calls.get(partner.id, admitted.id), replayed: false };
  }

  private async replay(partner: PartnerContext, callId: string): Promise<StartCallResult> {
    return { call: await this.calls.get(partner.id, callId), replayed: true };
  }

  /**
   * Inserts the call as pending if the partner has a free concurrency slot; atomic per partner. Answers
   * the id of the call its Idempotency-Key already names instead, when a concurrent start bound it first,
   * or the policy's stop: a do-not-call entry committed since the first check, or a frequency cap (counted
   * under the number's lock, so concurrent dials to one number cannot both take its last attempt). The partner's count is locked last, just before the insert: admissions of
   * one partner queue only for the insert and what must commit with it. A reseller's client's calls (and the
   * reseller's own) also count in the reseller's pool, bounded by the reseller's limit (lockResellerPool).
   */
  private async admit(
    partner: PartnerContext,
    agent: AgentForCall,
    from: PhoneNumber,
    input: StartCallDto,
    key: StartCallKey | null,
    permit: DialPermit,
    campaignId: string | null,
  ): Promise<Call | string | { stop: PolicyStop }> {
    const limit = effectiveConcurrencyLimit(partner.concurrencyLimit);
    return this.dataSource.transaction(async (em) => {
      await lockDialTarget(em, partner.id, input.to_number, key?.key ?? null);
      const earlier = key ? await callOfKey(em, partner.id, key) : null;
      if (earlier) return earlier;
      const stop = await this.policy.admissionStop(em, permit);
      if (stop) return { stop };
      const pool = await lockResellerPool(em, partner.id);
      const active = await lockActiveCalls(em, partner.id);
      if (active >= limit) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `Concurrency limit reached: ${active} of ${limit} calls are active; start again when one ends`,
        );
      }
      assertPoolRoom(pool);
      const call = em.create(
        Call,
        newCall(agent, {
          partnerId: partner.id,
          direction: 'outbound',
          fromNumber: from.number,
          toNumber: input.to_number,
          phoneNumberId: from.id,
          connectionId: from.connectionId,
          provider: from.provider as Call['provider'],
          providerCallId: null,
          clientReferenceId: input.client_reference_id ?? null,
          variables: input.variables ?? {},
          concurrencyLimit: limit,
          providerStatus: null,
          providerEvent: null,
          campaignId,
          customerId: input.customer_id ?? null,
        }),
      );
      // insert, not save: save would first look for the row, holding the partner's count a round trip longer.
      // (The cast: TypeORM's insert type cannot express a jsonb column typed Record<string, unknown>.)
      await em.insert(Call, call as QueryDeepPartialEntity<Call>);
      await em.insert(CallSession, newSession(call));
      if (key) await bindKey(em, partner.id, key, call.id);
      await this.outbox.record(
        em,
        DomainEvents.callStatusUpdated,
        partner.id,
        statusUpdatedData(call, null, accountConcurrency(limit, active + 1), call.createdAt),
      );
      return call;
    });
  }
}
