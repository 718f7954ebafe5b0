import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { INBOUND_ROUTE_VERSION, InboundRouteDecisionDto, InboundRouteRequestBody } from '@vap/api';
import { AppError, DomainEvents, ErrorCode, IntegrationLogEntry } from '@vap/messages';
import { assertOwnAgent, OutboxService, RpcClient } from '@vap/messaging';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';
import { SecretBox } from '@vap/secrets';
import { tableOf } from '@vap/persistence';
import { integrationLogEntry } from '../../integration-log/integration-log-entry';
import { DecisionClient, DecisionOutcome } from './decision-client';
import { toDecisionDto } from './decision-dto';
import { InboundRouteDecision } from './entities/inbound-route-decision.entity';
import { InboundRoutePolicy } from './entities/inbound-route-policy.entity';
import { policySecretContext } from './policy-dto';

export interface InboundCall {
  partnerId: string;
  provider: string;
  providerCallId: string;
  fromNumber: string;
  toNumber: string;
}

type Decided = Pick<
  InboundRouteDecision,
  | 'action'
  | 'source'
  | 'agentId'
  | 'transferToNumber'
  | 'webhookStatus'
  | 'webhookLatencyMs'
  | 'failureReason'
>;

/** A decision, and the request to the policy's URL that made it, when one was sent. */
type Asked = Decided & { logged?: IntegrationLogEntry };

/**
 * Decides what happens to an inbound call before it is answered: the first enabled policy in the order
 * PHONE_NUMBER, AGENT (the number's agent), PARTNER asks the partner's decision URL; its answer, or the
 * policy's failure_action when the URL fails, times out or answers outside the contract, is recorded.
 * A carrier repeating the same inbound webhook gets the decision already recorded.
 */
@Injectable()
export class InboundRouterService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly decisions: DecisionClient,
    private readonly box: SecretBox,
    private readonly rpc: RpcClient,
    private readonly outbox: OutboxService,
  ) {}

  /** The account's number the call is for; 404 when the called number is not one of the account's. */
  async numberFor(partnerId: string, toNumber: string): Promise<PhoneNumber> {
    const number = await this.dataSource
      .getRepository(PhoneNumber)
      .findOne({ where: { partnerId, number: toNumber } });
    if (!number) throw AppError.notFound('Phone number');
    return number;
  }

  async route(call: InboundCall): Promise<InboundRouteDecisionDto> {
    const existing = await this.recorded(call);
    if (existing) return toDecisionDto(existing);
    const number = await this.numberFor(call.partnerId, call.toNumber);
    const policy = await this.resolvePolicy(call.partnerId, number);
    const decided: Asked = policy ? await this.ask(policy, call, number) : noPolicy(number);
    return this.record(call, number, policy, decided);
  }

  /** Enabled policies in priority order: the number's, then its agent's, then the account's. */
  async resolvePolicy(partnerId: string, number: PhoneNumber): Promise<InboundRoutePolicy | null> {
    const repo = this.dataSource.getRepository(InboundRoutePolicy);
    const byNumber = await repo.findOne({
      where: { partnerId, scope: 'PHONE_NUMBER', phoneNumberId: number.id, enabled: true },
    });
    if (byNumber) return byNumber;
    if (number.agentId) {
      const byAgent = await repo.findOne({
        where: { partnerId, scope: 'AGENT', agentId: number.agentId, enabled: true },
      });
      if (byAgent) return byAgent;
    }
    return repo.findOne({ where: { partnerId, scope: 'PARTNER', enabled: true } });
  }

  private async ask(policy: InboundRoutePolicy, call: InboundCall, number: PhoneNumber): Promise<Asked> {
    const outcome = await this.send(policy, call, number);
    const decided = await this.decide(policy, call, number, outcome);
    const logged = integrationLogEntry(
      {
        partnerId: call.partnerId,
        kind: 'inbound_decision',
        hookId: null,
        callId: null,
        agentId: number.agentId,
        attempts: 1,
      },
      policy.webhookUrl,
      outcome.exchange,
      decided.failureReason ?? outcome.exchange.error,
    );
    return { ...decided, logged };
  }

  private send(policy: InboundRoutePolicy, call: InboundCall, number: PhoneNumber): Promise<DecisionOutcome> {
    const body: InboundRouteRequestBody = {
      event: 'inbound.route',
      version: INBOUND_ROUTE_VERSION,
      provider: call.provider,
      call: { provider_call_id: call.providerCallId, from_number: call.fromNumber, to_number: call.toNumber },
      phone_number: { id: number.id, number: number.number },
      agent: { id: number.agentId },
      partner: { id: call.partnerId },
    };
    const secret = policy.webhookSecretSealed
      ? this.box.open(policy.webhookSecretSealed, policySecretContext(policy.id))
      : null;
    return this.decisions.ask(policy.webhookUrl, body, secret, policy.timeoutMs, policy.allowedActions);
  }

  private async decide(
    policy: InboundRoutePolicy,
    call: InboundCall,
    number: PhoneNumber,
    outcome: DecisionOutcome,
  ): Promise<Decided> {
    const webhook = { webhookStatus: outcome.status, webhookLatencyMs: outcome.latencyMs };
    if (!outcome.ok) return { ...fallback(policy, number, outcome.reason), ...webhook };
    const { action, agentId, toNumber } = outcome.answer;
    if (action === 'SELECT_AGENT') {
      const own = await this.isOwnAgent(call.partnerId, agentId!);
      if (!own)
        return {
          ...fallback(policy, number, `invalid answer: agent ${agentId} is not an agent of this account`),
          ...webhook,
        };
      return { action, source: 'webhook', agentId, transferToNumber: null, failureReason: null, ...webhook };
    }
    if (action === 'ANSWER_WITH_AI' && !number.agentId) {
      return {
        ...fallback(policy, number, 'ANSWER_WITH_AI but no agent is assigned to the number'),
        ...webhook,
      };
    }
    return {
      action,
      source: 'webhook',
      agentId: action === 'ANSWER_WITH_AI' ? number.agentId : null,
      transferToNumber: toNumber,
      failureReason: null,
      ...webhook,
    };
  }

  private async isOwnAgent(partnerId: string, agentId: string): Promise<boolean> {
    try {
      await assertOwnAgent(this.rpc, partnerId, agentId);
      return true;
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.NOT_FOUND) return false;
      throw err;
    }
  }

  private recorded(call: InboundCall): Promise<InboundRouteDecision | null> {
    return this.dataSource.getRepository(InboundRouteDecision).findOne({
      where: { partnerId: call.partnerId, provider: call.provider, providerCallId: call.providerCallId },
    });
  }

  private async record(
    call: InboundCall,
    number: PhoneNumber,
    policy: InboundRoutePolicy | null,
    decided: Asked,
  ): Promise<InboundRouteDecisionDto> {
    const saved = await this.dataSource.transaction(async (em: EntityManager) => {
      const id = randomUUID();
      const inserted = (await em.query(
        `INSERT INTO ${tableOf(em, 'inbound_route_decisions')}
           (id, partner_id, policy_id, policy_scope, phone_number_id, provider, provider_call_id, from_number,
            to_number, action, source, agent_id, transfer_to_number, webhook_status, webhook_latency_ms, failure_reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         ON CONFLICT (partner_id, provider, provider_call_id) DO NOTHING
         RETURNING id`,
        [
          id,
          call.partnerId,
          policy?.id ?? null,
          policy?.scope ?? null,
          number.id,
          call.provider,
          call.providerCallId,
          call.fromNumber,
          call.toNumber,
          decided.action,
          decided.source,
          decided.agentId,
          decided.transferToNumber,
          decided.webhookStatus,
          decided.webhookLatencyMs,
          decided.failureReason,
        ],
      )) as { id: string }[];
      // A concurrent copy of the same carrier webhook recorded first: its decision stands.
      const row = await em.findOneOrFail(InboundRouteDecision, {
        where: inserted.length
          ? { id }
          : { partnerId: call.partnerId, provider: call.provider, providerCallId: call.providerCallId },
      });
      if (inserted.length)
        await this.outbox.record(em, DomainEvents.inboundRouteDecided, call.partnerId, toDecisionDto(row));
      // Every request sent is logged, a repeated webhook's too: the partner's URL received it.
      if (decided.logged)
        await this.outbox.record(em, DomainEvents.integrationRequestLogged, call.partnerId, decided.logged);
      return row;
    });
    return toDecisionDto(saved);
  }
}

function noPolicy(number: PhoneNumber): Decided {
  const base = {
    webhookStatus: null,
    webhookLatencyMs: null,
    transferToNumber: null,
    source: 'no_policy' as const,
  };
  if (number.agentId)
    return { ...base, action: 'ANSWER_WITH_AI', agentId: number.agentId, failureReason: null };
  return {
    ...base,
    action: 'REJECT',
    agentId: null,
    failureReason: 'no policy applies and no agent is assigned to the number',
  };
}

/** The policy's failure_action; answering with AI needs the number's agent, else the call is rejected. */
function fallback(
  policy: InboundRoutePolicy,
  number: PhoneNumber,
  reason: string,
): Omit<Decided, 'webhookStatus' | 'webhookLatencyMs'> {
  if (policy.failureAction === 'ANSWER_WITH_AI' && number.agentId) {
    return {
      action: 'ANSWER_WITH_AI',
      source: 'failure_action',
      agentId: number.agentId,
      transferToNumber: null,
      failureReason: reason,
    };
  }
  const why =
    policy.failureAction === 'ANSWER_WITH_AI' ? `${reason}; no agent is assigned to the number` : reason;
  return {
    action: 'REJECT',
    source: 'failure_action',
    agentId: null,
    transferToNumber: null,
    failureReason: why,
  };
}
