import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  CreateInboundRoutePolicyDto,
  INBOUND_ROUTE_ACTIONS,
  INBOUND_TIMEOUT_MS,
  InboundRoutePolicyDto,
} from '@vap/api';
import { AppError, InboundRoutePolicyId } from '@vap/messages';
import { assertOwnAgent, RpcClient } from '@vap/messaging';
import { isUniqueViolation } from '@vap/persistence';
import { SecretBox } from '@vap/secrets';
import { PhoneNumber } from '../../../phone-numbers/entities/phone-number.entity';
import { findOwnPhoneNumber } from '../../../phone-numbers/own-phone-number';
import { InboundRoutePolicy } from '../../entities/inbound-route-policy.entity';
import { policySecretContext, toPolicyDto } from '../../policy-dto';

/**
 * calls.inbound_policy.create: a pre-answer routing policy of the partner, at most one per phone number (its
 * own), per agent (its own) and per account (409 for a second).
 */
@Injectable()
export class CreateInboundPolicy {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    private readonly box: SecretBox,
  ) {}

  async execute(partnerId: string, input: CreateInboundRoutePolicyDto): Promise<InboundRoutePolicyDto> {
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
      input.scope === 'PHONE_NUMBER'
        ? await findOwnPhoneNumber(this.dataSource, partnerId, input.phone_number_id!)
        : null;
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
}

function scopeTarget(scope: string): string {
  return scope === 'PHONE_NUMBER' ? 'phone number' : scope === 'AGENT' ? 'agent' : 'account';
}

function defaultName(input: CreateInboundRoutePolicyDto, number: PhoneNumber | null): string {
  if (input.scope === 'PHONE_NUMBER') return `Number ${number?.number ?? ''}`.trim();
  if (input.scope === 'AGENT') return `Agent ${input.agent_id}`;
  return 'Account default';
}
