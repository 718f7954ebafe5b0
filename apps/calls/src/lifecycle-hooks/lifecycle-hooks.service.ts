import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import {
  CreateLifecycleHookDto,
  LIFECYCLE_HOOK_TIMEOUT_MS,
  LifecycleHookDeletedDto,
  LifecycleHookDto,
  LifecycleHookEvent,
  LifecycleHookListDto,
  LifecycleHookWithSecretDto,
  UpdateLifecycleHookDto,
} from '@vap/api';
import { AppError, LifecycleHookId } from '@vap/messages';
import { assertOwnAgent, RpcClient } from '@vap/messaging';
import { isUniqueViolation } from '@vap/persistence';
import { SecretBox } from '@vap/secrets';
import { hookSecretContext, LifecycleHook } from './entities/lifecycle-hook.entity';

/** A hook's signing secret: the HMAC key is the whole string, prefix included. */
export function newHookSecret(): string {
  return `hksec_${randomBytes(32).toString('base64url')}`;
}

export function toHookDto(hook: LifecycleHook): LifecycleHookDto {
  return {
    id: hook.id,
    event: hook.event,
    agent_id: hook.agentId,
    url: hook.url,
    timeout_ms: hook.timeoutMs,
    failure_action: hook.failureAction,
    enabled: hook.enabled,
    created_at: hook.createdAt.toISOString(),
    updated_at: hook.updatedAt.toISOString(),
  };
}

/**
 * The partner's lifecycle hooks: at most one per event for the account (agent_id null) and one per event
 * for each of its agents. The signing secret is made here, sealed, and shown on creation and rotation only.
 */
@Injectable()
export class LifecycleHooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    private readonly box: SecretBox,
  ) {}

  async create(partnerId: string, input: CreateLifecycleHookDto): Promise<LifecycleHookWithSecretDto> {
    assertTimeout(input.event, input.timeout_ms);
    assertFailureAction(input.event, input.failure_action);
    const agentId = input.agent_id ?? null;
    if (agentId) await assertOwnAgent(this.rpc, partnerId, agentId);
    const id = LifecycleHookId.format(randomUUID());
    const secret = newHookSecret();
    const repo = this.dataSource.getRepository(LifecycleHook);
    const hook = repo.create({
      id,
      partnerId,
      event: input.event,
      agentId,
      url: input.url,
      secretSealed: this.box.seal(secret, hookSecretContext(id)),
      timeoutMs: input.timeout_ms ?? LIFECYCLE_HOOK_TIMEOUT_MS[input.event].default,
      failureAction: input.event === 'pre_call' ? (input.failure_action ?? 'continue') : null,
      enabled: input.enabled ?? true,
    });
    try {
      await repo.save(hook);
    } catch (err) {
      if (isUniqueViolation(err))
        throw AppError.conflict(
          `A ${input.event} hook for ${agentId ? 'this agent' : 'the account'} already exists`,
        );
      throw err;
    }
    return { ...toHookDto(hook), secret };
  }

  async list(partnerId: string): Promise<LifecycleHookListDto> {
    const hooks = await this.dataSource
      .getRepository(LifecycleHook)
      .find({ where: { partnerId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return { hooks: hooks.map(toHookDto) };
  }

  async get(partnerId: string, id: string): Promise<LifecycleHookDto> {
    return toHookDto(await this.find(partnerId, id));
  }

  async update(partnerId: string, id: string, changes: UpdateLifecycleHookDto): Promise<LifecycleHookDto> {
    return this.dataSource.transaction(async (em) => {
      const hook = await em.findOne(LifecycleHook, {
        where: { id, partnerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!hook) throw AppError.notFound('Lifecycle hook');
      assertTimeout(hook.event, changes.timeout_ms);
      assertFailureAction(hook.event, changes.failure_action);
      if (changes.url !== undefined) hook.url = changes.url;
      if (changes.timeout_ms !== undefined) hook.timeoutMs = changes.timeout_ms;
      if (changes.failure_action !== undefined) hook.failureAction = changes.failure_action;
      if (changes.enabled !== undefined) hook.enabled = changes.enabled;
      await em.save(hook);
      return toHookDto(hook);
    });
  }

  async remove(partnerId: string, id: string): Promise<LifecycleHookDeletedDto> {
    const result = await this.dataSource.getRepository(LifecycleHook).delete({ id, partnerId });
    if (!result.affected) throw AppError.notFound('Lifecycle hook');
    return { id, deleted: true };
  }

  /** A new secret replaces the old at once: requests signed from now on use it. */
  async rotateSecret(partnerId: string, id: string): Promise<LifecycleHookWithSecretDto> {
    return this.dataSource.transaction(async (em) => {
      const hook = await em.findOne(LifecycleHook, {
        where: { id, partnerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!hook) throw AppError.notFound('Lifecycle hook');
      const secret = newHookSecret();
      hook.secretSealed = this.box.seal(secret, hookSecretContext(id));
      await em.save(hook);
      return { ...toHookDto(hook), secret };
    });
  }

  /** The enabled hook a call of `agentId` runs for `event`: the agent's own, else the account default. */
  async resolve(
    partnerId: string,
    agentId: string,
    event: LifecycleHookEvent,
  ): Promise<LifecycleHook | null> {
    const repo = this.dataSource.getRepository(LifecycleHook);
    const own = await repo.findOne({ where: { partnerId, event, agentId } });
    // A disabled agent hook still wins over the default: disabling it turns the hook off for that agent.
    if (own) return own.enabled ? own : null;
    const fallback = await repo.findOne({ where: { partnerId, event, agentId: IsNull() } });
    return fallback?.enabled ? fallback : null;
  }

  /** The hook's signing secret, unsealed for one request. */
  secretOf(hook: LifecycleHook): string {
    return this.box.open(hook.secretSealed, hookSecretContext(hook.id));
  }

  private async find(partnerId: string, id: string): Promise<LifecycleHook> {
    const hook = await this.dataSource.getRepository(LifecycleHook).findOne({ where: { id, partnerId } });
    if (!hook) throw AppError.notFound('Lifecycle hook');
    return hook;
  }
}

function assertTimeout(event: LifecycleHookEvent, timeoutMs: number | undefined): void {
  if (timeoutMs === undefined) return;
  const { min, max } = LIFECYCLE_HOOK_TIMEOUT_MS[event];
  if (timeoutMs < min || timeoutMs > max)
    throw AppError.validation([
      { field: 'timeout_ms', message: `timeout_ms of a ${event} hook must be between ${min} and ${max}` },
    ]);
}

function assertFailureAction(event: LifecycleHookEvent, action: unknown): void {
  if (event !== 'pre_call' && action !== undefined)
    throw AppError.validation([
      { field: 'failure_action', message: 'failure_action is accepted only for pre_call hooks' },
    ]);
}
