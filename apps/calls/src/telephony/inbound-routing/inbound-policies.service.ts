import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, In } from 'typeorm';
import {
  CreateInboundRoutePolicyDto,
  INBOUND_ROUTE_ACTIONS,
  INBOUND_TIMEOUT_MS,
  InboundRoutePolicyDeletedDto,
  InboundRoutePolicyDto,
  InboundRoutePolicyListDto,
  UpdateInboundRoutePolicyDto,
} from '@vap/api';
import { AppError, InboundRoutePolicyId } from '@vap/messages';
import { assertOwnAgent, RpcClient } from '@vap/messaging';
import { isUniqueViolation } from '@vap/persistence';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';
import { SecretBox } from '@vap/secrets';
import { InboundRoutePolicy } from './entities/inbound-route-policy.entity';
import { policySecretContext, toPolicyDto } from './policy-dto';

/** Pre-answer routing policies of a partner: at most one per phone number, per agent, and per account. */
@Injectable()
export class InboundPoliciesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    private readonly box: SecretBox,
  ) {}

  async create(partnerId: string, input: CreateInboundRoutePolicyDto): Promise<InboundRoutePolicyDto> {
    if (input.scope !== 'PHONE_NUMBER' && input.phone_number_id !== undefined) {
      throw AppError.validation([
        { field: 'phone_number_id', message: 'phone_number_id is accepted only with scope PHONE_NUMBER' },
      ]);
    }
    if (input.scope !== 'AGENT' && input.agent_id !== undefined) {
      throw AppError.validation([
        { field: 'agent_id', message: 'agent_id is accepted only with scope AGENT' },
      ]);
    }
    const number =
      input.scope === 'PHONE_NUMBER' ? await this.ownNumber(partnerId, input.phone_number_id!) : null;
    if (input.scope === 'AGENT') await assertOwnAgent(this.rpc, partnerId, input.agent_id!);
    const id = InboundRoutePolicyId.format(randomUUID());
    const policy = this.dataSource.getRepository(InboundRoutePolicy).create({
      id,
      partnerId,
      scope: input.scope,
      phoneNumberId: number?.id ?? null,
      agentId: input.scope === 'AGENT' ? input.agent_id! : null,
      name: input.name ?? defaultName(input, number),
      enabled: input.enabled ?? true,
      webhookUrl: input.webhook_url,
      webhookSecretSealed: input.webhook_secret
        ? this.box.seal(input.webhook_secret, policySecretContext(id))
        : null,
      timeoutMs: input.timeout_ms ?? INBOUND_TIMEOUT_MS.default,
      failureAction: input.failure_action ?? 'ANSWER_WITH_AI',
      allowedActions: input.allowed_actions ?? [...INBOUND_ROUTE_ACTIONS],
    });
    try {
      await this.dataSource.getRepository(InboundRoutePolicy).save(policy);
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw AppError.conflict(
          `A ${input.scope} policy for this ${scopeTarget(input.scope)} already exists`,
        );
      }
      throw err;
    }
    return toPolicyDto(policy, number);
  }

  async list(partnerId: string): Promise<InboundRoutePolicyListDto> {
    const policies = await this.dataSource
      .getRepository(InboundRoutePolicy)
      .find({ where: { partnerId }, order: { createdAt: 'ASC', id: 'ASC' } });
    const numberIds = policies.map((p) => p.phoneNumberId).filter((x): x is string => !!x);
    const numbers = numberIds.length
      ? await this.dataSource.getRepository(PhoneNumber).find({ where: { partnerId, id: In(numberIds) } })
      : [];
    return {
      policies: policies.map((p) => toPolicyDto(p, numbers.find((n) => n.id === p.phoneNumberId) ?? null)),
    };
  }

  async get(partnerId: string, id: string): Promise<InboundRoutePolicyDto> {
    const policy = await this.find(partnerId, id);
    return toPolicyDto(policy, await this.numberOf(policy));
  }

  async update(
    partnerId: string,
    id: string,
    changes: UpdateInboundRoutePolicyDto,
  ): Promise<InboundRoutePolicyDto> {
    return this.dataSource.transaction(async (em) => {
      const policy = await em.findOne(InboundRoutePolicy, {
        where: { id, partnerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!policy) throw AppError.notFound('Inbound route policy');
      if (changes.name !== undefined) policy.name = changes.name;
      if (changes.enabled !== undefined) policy.enabled = changes.enabled;
      if (changes.webhook_url !== undefined) policy.webhookUrl = changes.webhook_url;
      if (changes.webhook_secret !== undefined) {
        policy.webhookSecretSealed =
          changes.webhook_secret === null
            ? null
            : this.box.seal(changes.webhook_secret, policySecretContext(id));
      }
      if (changes.timeout_ms !== undefined) policy.timeoutMs = changes.timeout_ms;
      if (changes.failure_action !== undefined) policy.failureAction = changes.failure_action;
      if (changes.allowed_actions !== undefined) policy.allowedActions = changes.allowed_actions;
      await em.save(policy);
      return toPolicyDto(policy, await this.numberOf(policy));
    });
  }

  async remove(partnerId: string, id: string): Promise<InboundRoutePolicyDeletedDto> {
    const result = await this.dataSource.getRepository(InboundRoutePolicy).delete({ id, partnerId });
    if (!result.affected) throw AppError.notFound('Inbound route policy');
    return { id, deleted: true };
  }

  private async find(partnerId: string, id: string): Promise<InboundRoutePolicy> {
    const policy = await this.dataSource
      .getRepository(InboundRoutePolicy)
      .findOne({ where: { id, partnerId } });
    if (!policy) throw AppError.notFound('Inbound route policy');
    return policy;
  }

  private async ownNumber(partnerId: string, id: string): Promise<PhoneNumber> {
    const number = await this.dataSource.getRepository(PhoneNumber).findOne({ where: { id, partnerId } });
    if (!number) throw AppError.notFound('Phone number');
    return number;
  }

  private numberOf(policy: InboundRoutePolicy): Promise<PhoneNumber | null> {
    return policy.phoneNumberId
      ? this.dataSource.getRepository(PhoneNumber).findOne({ where: { id: policy.phoneNumberId } })
      : Promise.resolve(null);
  }
}

function scopeTarget(scope: string): string {
  return scope === 'PHONE_NUMBER' ? 'phone number' : scope === 'AGENT' ? 'agent' : 'account';
}

function defaultName(input: CreateInboundRoutePolicyDto, number: PhoneNumber | null): string {
  if (input.scope === 'PHONE_NUMBER') return `Number ${number?.number ?? ''}`.trim();
  if (input.scope === 'AGENT') return `Agent ${input.agent_id}`;
  return 'Account default';
}
