import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import {
  LEGACY_WEBHOOK_LABEL,
  LegacyWebhookResultDto,
  MAX_WEBHOOK_ENDPOINTS_PER_SCOPE,
  UpdateWebhookEndpointDto,
  WebhookEndpointDeletedDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
} from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { inTransaction, WriteConflicts } from '@vap/persistence';
import { AgentFlagService } from '../agent-flag/agent-flag.service';
import { parseDuration } from '../config/duration';
import { WebhooksConfig } from '../config/webhooks.config';
import { lockScope } from '../common/scope-lock';
import { EndpointSecrets } from './endpoint-secrets';
import { toEndpointDto } from './endpoint-record';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';

const SECRET_MESSAGE = 'Store this secret now: it is not shown again.';

const LABEL_TAKEN: WriteConflicts = {
  unique: {
    endpoints_partner_label_key: () =>
      new AppError(
        ErrorCode.LABEL_TAKEN,
        'This label is already used by another webhook endpoint on the account',
      ),
  },
};

/** New endpoint fields; the agent, when given, has been checked by the caller. */
export interface NewEndpoint {
  label: string;
  url: string;
  agentId: string | null;
  events?: string[];
  enabled?: boolean;
}

/** Endpoints of both scopes: limits, unique labels, secrets shown once, and the flag's flip-back. */
@Injectable()
export class WebhookEndpointsService {
  private readonly graceMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: EndpointSecrets,
    private readonly flags: AgentFlagService,
    config: WebhooksConfig,
  ) {
    this.graceMs = parseDuration(config.WEBHOOK_SECRET_GRACE) ?? 0;
  }

  create(partnerId: string, input: NewEndpoint): Promise<WebhookEndpointWithSecretDto> {
    return this.write(async (em) => {
      await lockScope(em, partnerId, input.agentId);
      const { id, secret } = await this.createInTransaction(em, partnerId, input);
      const saved = await em.findOneByOrFail(WebhookEndpoint, { id });
      return { ...toEndpointDto(saved), secret, message: SECRET_MESSAGE };
    });
  }

  async list(partnerId: string): Promise<WebhookEndpointListDto> {
    const rows = await this.dataSource.manager.find(WebhookEndpoint, {
      where: { partnerId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return { endpoints: rows.map((e) => toEndpointDto(e)) };
  }

  /** One agent's own endpoints (the caller has checked the agent). */
  async listForAgent(em: EntityManager, partnerId: string, agentId: string): Promise<WebhookEndpointDto[]> {
    const rows = await em.find(WebhookEndpoint, {
      where: { partnerId, agentId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map((e) => toEndpointDto(e));
  }

  update(partnerId: string, id: string, changes: UpdateWebhookEndpointDto): Promise<WebhookEndpointDto> {
    return this.write(async (em) => {
      const endpoint = await this.lockEndpoint(em, partnerId, id);
      if (changes.label !== undefined) endpoint.label = changes.label;
      if (changes.url !== undefined) endpoint.url = changes.url;
      if (changes.events !== undefined) endpoint.events = dedupe(changes.events);
      const disabling = changes.enabled === false && endpoint.enabled;
      if (changes.enabled !== undefined) {
        endpoint.enabled = changes.enabled;
        // Enabling again starts a fresh health record; disabling by hand is not the platform's doing.
        endpoint.disabledReason = null;
        if (changes.enabled) endpoint.failingSince = null;
      }
      endpoint.updatedAt = new Date();
      await em.save(endpoint);
      if (disabling && endpoint.agentId) await this.flags.flipBackIfOrphaned(em, partnerId, endpoint.agentId);
      return toEndpointDto(endpoint);
    });
  }

  /** Works whatever became of the endpoint's agent; its deliveries and their history go with it. */
  remove(partnerId: string, id: string): Promise<WebhookEndpointDeletedDto> {
    return this.write(async (em) => {
      const endpoint = await this.lockEndpoint(em, partnerId, id);
      await em.delete(WebhookEndpoint, { id: endpoint.id });
      if (endpoint.agentId) await this.flags.flipBackIfOrphaned(em, partnerId, endpoint.agentId);
      return { id: endpoint.id, message: 'Webhook endpoint deleted' };
    });
  }

  /** A new secret, shown once; the previous one keeps signing alongside for WEBHOOK_SECRET_GRACE. */
  rotateSecret(partnerId: string, id: string): Promise<WebhookEndpointWithSecretDto> {
    return this.write(async (em) => {
      const endpoint = await this.lockEndpoint(em, partnerId, id);
      const secret = this.replaceSecret(endpoint);
      await em.save(endpoint);
      return { ...toEndpointDto(endpoint), secret, message: SECRET_MESSAGE };
    });
  }

  /** PUT /config/webhook: creates or replaces the account-wide `default` endpoint, new secret every call. */
  putLegacy(partnerId: string, url: string): Promise<LegacyWebhookResultDto> {
    return this.write(async (em) => {
      await lockScope(em, partnerId, null);
      const existing = await em.findOne(WebhookEndpoint, {
        where: { partnerId, label: LEGACY_WEBHOOK_LABEL },
        lock: { mode: 'pessimistic_write' },
      });
      if (!existing) {
        const created = await this.createInTransaction(em, partnerId, {
          label: LEGACY_WEBHOOK_LABEL,
          url,
          agentId: null,
        });
        return {
          webhook_url: url,
          webhook_secret: created.secret,
          message: `Webhook saved. ${SECRET_MESSAGE}`,
          id: created.id,
        };
      }
      existing.url = url;
      existing.enabled = true;
      existing.events = [];
      existing.disabledReason = null;
      existing.failingSince = null;
      const secret = this.replaceSecret(existing);
      await em.save(existing);
      return {
        webhook_url: url,
        webhook_secret: secret,
        message: `Webhook saved. ${SECRET_MESSAGE}`,
        id: existing.id,
      };
    });
  }

  private async createInTransaction(
    em: EntityManager,
    partnerId: string,
    input: NewEndpoint,
  ): Promise<{ id: string; secret: string }> {
    await this.assertRoomInScope(em, partnerId, input.agentId);
    const id = randomUUID();
    const secret = this.secrets.generate();
    const now = new Date();
    await em.insert(WebhookEndpoint, {
      id,
      partnerId,
      agentId: input.agentId,
      label: input.label,
      url: input.url,
      enabled: input.enabled ?? true,
      events: dedupe(input.events ?? []),
      secretSealed: this.secrets.seal(id, 'secret', secret),
      createdAt: now,
      updatedAt: now,
    });
    return { id, secret };
  }

  private replaceSecret(endpoint: WebhookEndpoint): string {
    const secret = this.secrets.generate();
    const now = new Date();
    const current = this.secrets.open(endpoint.id, 'secret', endpoint.secretSealed);
    endpoint.previousSecretSealed =
      this.graceMs > 0 ? this.secrets.seal(endpoint.id, 'previous_secret', current) : null;
    endpoint.previousSecretExpiresAt = this.graceMs > 0 ? new Date(now.getTime() + this.graceMs) : null;
    endpoint.secretSealed = this.secrets.seal(endpoint.id, 'secret', secret);
    endpoint.updatedAt = now;
    return secret;
  }

  private async assertRoomInScope(
    em: EntityManager,
    partnerId: string,
    agentId: string | null,
  ): Promise<void> {
    const count = await em.countBy(WebhookEndpoint, { partnerId, agentId: agentId ?? IsNull() });
    if (count >= MAX_WEBHOOK_ENDPOINTS_PER_SCOPE) {
      throw new AppError(
        ErrorCode.LIMIT_REACHED,
        agentId
          ? `An agent can have at most ${MAX_WEBHOOK_ENDPOINTS_PER_SCOPE} webhook endpoints`
          : `An account can have at most ${MAX_WEBHOOK_ENDPOINTS_PER_SCOPE} account-wide webhook endpoints`,
      );
    }
  }

  /** The partner's endpoint, locked with its scope; another account's is 404. */
  private async lockEndpoint(em: EntityManager, partnerId: string, id: string): Promise<WebhookEndpoint> {
    const found = await em.findOneBy(WebhookEndpoint, { id, partnerId });
    if (!found) throw AppError.notFound('Webhook endpoint');
    // Scope first, then the row, in the order creation and the flag take them.
    await lockScope(em, partnerId, found.agentId);
    const endpoint = await em.findOne(WebhookEndpoint, {
      where: { id, partnerId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!endpoint) throw AppError.notFound('Webhook endpoint');
    return endpoint;
  }

  private write<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.dataSource, work, LABEL_TAKEN);
  }
}

function dedupe(events: string[]): string[] {
  return [...new Set(events)];
}
