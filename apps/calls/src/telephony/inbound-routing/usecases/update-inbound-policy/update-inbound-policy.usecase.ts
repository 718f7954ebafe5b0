import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InboundRoutePolicyDto, UpdateInboundRoutePolicyDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { SecretBox } from '@vap/secrets';
import { InboundRoutePolicy } from '../../entities/inbound-route-policy.entity';
import { policySecretContext, toPolicyDto } from '../../policy-dto';
import { policyNumberOf } from '../../policy-number';

/**
 * calls.inbound_policy.update: everything but a policy's scope and target can change; `webhook_secret: null`
 * removes the secret.
 */
@Injectable()
export class UpdateInboundPolicy {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly box: SecretBox,
  ) {}

  execute(
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
      return toPolicyDto(policy, await policyNumberOf(this.dataSource, policy));
    });
  }
}
