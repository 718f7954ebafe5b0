import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  ApiKeySummaryDto,
  ClientDto,
  ClientFundingDto,
  ClientListDto,
  CreateApiKeyDto,
  CreateClientDto,
  CreatedApiKeyDto,
  CreatedClientDto,
  CursorQueryDto,
  MAX_RESELLER_CLIENTS,
  UpdateClientDto,
} from '@vap/api';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { keysetPage, tableOf } from '@vap/persistence';
import { ApiKeysService, toApiKeySummary } from '../accounts/api-keys.service';
import { LedgerEntry } from '../accounts/entities/ledger-entry.entity';
import { Partner } from '../accounts/entities/partner.entity';
import { paiseToRupees, rupeesToPaise, toPartnerDto } from '../accounts/partners.service';
import { ApiKeyCache } from '../auth/api-key-cache';
import { GatewayConfig } from '../config/gateway.config';

export function toClientDto(p: Partner): ClientDto {
  return {
    id: p.id,
    name: p.name,
    email: p.contactEmail,
    status: p.status,
    suspended_by: p.status === 'suspended' ? p.suspendedBy : null,
    balance_inr: paiseToRupees(p.balancePaise),
    concurrency_limit: p.concurrencyLimit,
    price_per_minute_inr: p.pricePerMinutePaise === null ? null : paiseToRupees(p.pricePerMinutePaise),
    voice_tier: p.voiceTier,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** Same for every route and caller: a partner that is not a reseller learns nothing about any client. */
function notReseller(): AppError {
  return new AppError(ErrorCode.FORBIDDEN, 'This account is not a reseller: only resellers manage clients');
}

const DEFAULT_CLIENT_CONCURRENCY = 5;

/** How long an Idempotency-Key of POST /clients/{id}/fund names its transfer; after that it may name a new one. */
export const FUND_KEY_RETENTION_HOURS = 24;

/**
 * A reseller's client accounts: partners of their own (their keys, tenancy, balance) whose reseller_id names
 * the reseller. Every read and write is scoped by it; another reseller's client is absent (404).
 */
@Injectable()
export class ClientsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly apiKeys: ApiKeysService,
    private readonly outbox: OutboxService,
    private readonly keyCache: ApiKeyCache,
    private readonly config: GatewayConfig,
  ) {}

  /** The reseller, or 403 FORBIDDEN when the account is not one. */
  async requireReseller(resellerId: string, em: EntityManager = this.dataSource.manager): Promise<Partner> {
    const reseller = await em.findOne(Partner, { where: { id: resellerId } });
    if (!reseller?.isReseller) throw notReseller();
    return reseller;
  }

  async create(resellerId: string, input: CreateClientDto): Promise<CreatedClientDto> {
    return this.dataSource.transaction(async (em) => {
      // Under the reseller's row lock, so two creations at once cannot both pass the count.
      const reseller = await em.findOne(Partner, {
        where: { id: resellerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!reseller?.isReseller) throw notReseller();
      if ((await em.count(Partner, { where: { resellerId } })) >= MAX_RESELLER_CLIENTS) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `A reseller holds at most ${MAX_RESELLER_CLIENTS} client accounts`,
        );
      }
      const concurrency =
        input.concurrency_limit ?? Math.min(DEFAULT_CLIENT_CONCURRENCY, reseller.concurrencyLimit);
      this.checkConcurrency(reseller, concurrency);
      const client = em.create(Partner, {
        id: randomUUID(),
        name: input.name,
        status: 'approved',
        balancePaise: 0,
        concurrencyLimit: concurrency,
        voiceTier: reseller.voiceTier,
        isReseller: false,
        resellerId,
        contactEmail: input.email ?? null,
        pricePerMinutePaise: this.rateCard(input.price_per_minute_inr),
        suspendedBy: null,
      });
      await em.save(client);
      const { key, record } = await this.apiKeys.issue(em, client.id, 'default', null, { via: 'reseller' });
      await this.outbox.record(em, DomainEvents.partnerCreated, client.id, toPartnerDto(client));
      return { client: toClientDto(client), api_key: key, key: toApiKeySummary(record) };
    });
  }

  async list(resellerId: string, query: CursorQueryDto): Promise<ClientListDto> {
    await this.requireReseller(resellerId);
    const qb = this.dataSource
      .getRepository(Partner)
      .createQueryBuilder('p')
      .where('p.reseller_id = :resellerId', { resellerId });
    const page = await keysetPage(qb, query, { idKind: 'uuid' });
    return { clients: page.rows.map(toClientDto), next_cursor: page.nextCursor };
  }

  /** The reseller's client, or 404 NOT_FOUND (another reseller's client, or no such account). */
  async get(resellerId: string, clientId: string): Promise<Partner> {
    await this.requireReseller(resellerId);
    const client = await this.dataSource
      .getRepository(Partner)
      .findOne({ where: { id: clientId, resellerId } });
    if (!client) throw AppError.notFound('Client');
    return client;
  }

  async update(resellerId: string, clientId: string, input: UpdateClientDto): Promise<ClientDto> {
    const reseller = await this.requireReseller(resellerId);
    return this.change(resellerId, clientId, (client) => {
      if (input.name !== undefined) client.name = input.name;
      if (input.email !== undefined) client.contactEmail = input.email;
      if (input.concurrency_limit !== undefined) {
        this.checkConcurrency(reseller, input.concurrency_limit);
        client.concurrencyLimit = input.concurrency_limit;
      }
      if (input.price_per_minute_inr !== undefined) {
        client.pricePerMinutePaise = this.rateCard(input.price_per_minute_inr);
      }
    });
  }

  /** Its keys answer 403 FORBIDDEN until resumed. Suspending a suspended client changes nothing. */
  async suspend(resellerId: string, clientId: string): Promise<ClientDto> {
    await this.requireReseller(resellerId);
    return this.change(resellerId, clientId, (client) => {
      if (client.status === 'suspended') return;
      if (client.status !== 'approved') {
        throw new AppError(ErrorCode.INVALID_STATE, 'Only an approved client can be suspended');
      }
      client.status = 'suspended';
      client.suspendedBy = 'reseller';
    });
  }

  /** Lifts the reseller's own suspension; the operator's stays (409 INVALID_STATE). */
  async resume(resellerId: string, clientId: string): Promise<ClientDto> {
    await this.requireReseller(resellerId);
    return this.change(resellerId, clientId, (client) => {
      if (client.status === 'approved') return;
      if (client.status !== 'suspended' || client.suspendedBy !== 'reseller') {
        throw new AppError(
          ErrorCode.INVALID_STATE,
          'This client was suspended or held by the platform operator; only the operator can lift it',
        );
      }
      client.status = 'approved';
      client.suspendedBy = null;
    });
  }

  /**
   * Moves money from the reseller's balance to the client's in one transaction, with an entry in each ledger.
   * 403 INSUFFICIENT_BALANCE when the reseller's balance does not cover it: nothing moves. The rows are locked
   * client first, then reseller, the order a client's call charge takes them in.
   *
   * With an Idempotency-Key, the first transfer's answer is kept with the key for FUND_KEY_RETENTION_HOURS:
   * the same key for the same client and amount answers it again (replayed) and moves nothing; the same key
   * for another client or amount is 409 CONFLICT. Looked up under the reseller's row lock, so two requests
   * with one key cannot both move money. A refused request keeps no key: it may be retried with it.
   */
  async fund(
    resellerId: string,
    clientId: string,
    amountInr: number,
    idempotencyKey?: string,
  ): Promise<{ funding: ClientFundingDto; replayed: boolean }> {
    await this.requireReseller(resellerId);
    const amount = rupeesToPaise(amountInr);
    const transferId = randomUUID();
    const requestHash = createHash('sha256').update(`${clientId}:${amount}`).digest('hex');
    const result = await this.dataSource.transaction(async (em) => {
      const client = await em.findOne(Partner, {
        where: { id: clientId, resellerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!client) throw AppError.notFound('Client');
      const reseller = await em.findOne(Partner, {
        where: { id: resellerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!reseller?.isReseller) throw notReseller();
      if (idempotencyKey !== undefined) {
        const replay = await this.fundingOfKey(em, resellerId, idempotencyKey, requestHash);
        if (replay) return { funding: replay, replayed: true };
      }
      if (reseller.balancePaise < amount) {
        throw new AppError(
          ErrorCode.INSUFFICIENT_BALANCE,
          `Your balance (INR ${paiseToRupees(reseller.balancePaise)}) does not cover INR ${amountInr}; nothing was moved`,
        );
      }
      reseller.balancePaise -= amount;
      client.balancePaise += amount;
      await em.save([reseller, client]);
      await this.transferEntry(em, reseller, -amount, transferId, 'out', client.id);
      await this.transferEntry(em, client, amount, transferId, 'in', null);
      await this.outbox.record(em, DomainEvents.partnerUpdated, reseller.id, toPartnerDto(reseller));
      await this.outbox.record(em, DomainEvents.partnerUpdated, client.id, toPartnerDto(client));
      const funding: ClientFundingDto = {
        transfer_id: transferId,
        amount_inr: paiseToRupees(amount),
        reseller_balance_inr: paiseToRupees(reseller.balancePaise),
        client: toClientDto(client),
      };
      if (idempotencyKey !== undefined) {
        await em.query(
          `INSERT INTO ${tableOf(em, 'client_fund_keys')} AS k (reseller_id, key, request_hash, response)
           VALUES ($1, $2, $3, $4)
           ON CONFLICT (reseller_id, key) DO UPDATE
              SET request_hash = EXCLUDED.request_hash, response = EXCLUDED.response, created_at = now()`,
          [resellerId, idempotencyKey, requestHash, JSON.stringify(funding)],
        );
      }
      return { funding, replayed: false };
    });
    if (!result.replayed) {
      this.keyCache.forgetPartner(resellerId);
      this.keyCache.forgetPartner(clientId);
    }
    return result;
  }

  /**
   * The answer a live key keeps (null: a new key, or one kept longer than FUND_KEY_RETENTION_HOURS, which may
   * name a new transfer). The reseller's expired keys are dropped here, under its row lock.
   */
  private async fundingOfKey(
    em: EntityManager,
    resellerId: string,
    key: string,
    requestHash: string,
  ): Promise<ClientFundingDto | null> {
    const table = tableOf(em, 'client_fund_keys');
    await em.query(
      `DELETE FROM ${table} WHERE reseller_id = $1 AND created_at <= now() - make_interval(hours => $2)`,
      [resellerId, FUND_KEY_RETENTION_HOURS],
    );
    const [row] = (await em.query(
      `SELECT request_hash, response FROM ${table} WHERE reseller_id = $1 AND key = $2`,
      [resellerId, key],
    )) as { request_hash: string; response: ClientFundingDto }[];
    if (!row) return null;
    if (row.request_hash !== requestHash) {
      throw AppError.conflict('This Idempotency-Key was already used with a different request');
    }
    return row.response;
  }

  /** The client's API keys, oldest first, revoked ones included (never the secrets). `client` is one get() gave. */
  async listKeys(client: Partner): Promise<ApiKeySummaryDto[]> {
    return (await this.apiKeys.list(client.id)).map(toApiKeySummary);
  }

  /** Issues the client (one get() gave) another key, shown once, within MAX_ACTIVE_API_KEYS (429 LIMIT_REACHED). */
  async issueKey(client: Partner, input: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    const { key, record } = await this.apiKeys.issueNow(client.id, input.name ?? null, input.scopes ?? null, {
      via: 'reseller',
    });
    return { api_key: key, key: toApiKeySummary(record) };
  }

  /** Revokes a key of the client (one get() gave): every gateway stops taking it at once (ApiKeysService.revoke). */
  async revokeKey(client: Partner, keyId: string): Promise<ApiKeySummaryDto> {
    const key = await this.apiKeys.revoke(client.id, keyId);
    if (!key) throw AppError.notFound('API key');
    return toApiKeySummary(key);
  }

  private async change(
    resellerId: string,
    clientId: string,
    apply: (client: Partner) => void,
  ): Promise<ClientDto> {
    const dto = await this.dataSource.transaction(async (em) => {
      const client = await em.findOne(Partner, {
        where: { id: clientId, resellerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!client) throw AppError.notFound('Client');
      apply(client);
      await em.save(client);
      await this.outbox.record(em, DomainEvents.partnerUpdated, client.id, toPartnerDto(client));
      return toClientDto(client);
    });
    // At once here; the other replicas drop the client's keys when the event above reaches them.
    this.keyCache.forgetPartner(clientId);
    return dto;
  }

  /** A client runs at most as many calls at once as its reseller may. */
  private checkConcurrency(reseller: Partner, limit: number): void {
    if (limit > reseller.concurrencyLimit) {
      throw AppError.validation([
        {
          field: 'concurrency_limit',
          message: `concurrency_limit must be at most your own, ${reseller.concurrencyLimit}`,
        },
      ]);
    }
  }

  /** The rate card in paise a minute (null: the platform's price); never below the platform's price. */
  private rateCard(inr: number | null | undefined): number | null {
    if (inr === undefined || inr === null) return null;
    const paise = rupeesToPaise(inr);
    const floor = this.config.CALL_PRICE_PER_MINUTE_PAISE;
    if (paise < floor) {
      throw AppError.validation([
        {
          field: 'price_per_minute_inr',
          message: `price_per_minute_inr must be at least the platform's price, INR ${paiseToRupees(floor)} a minute`,
        },
      ]);
    }
    return paise;
  }

  private async transferEntry(
    em: EntityManager,
    partner: Partner,
    amountPaise: number,
    transferId: string,
    side: 'out' | 'in',
    clientId: string | null,
  ): Promise<void> {
    await em.insert(LedgerEntry, {
      id: randomUUID(),
      partnerId: partner.id,
      type: 'transfer',
      amountPaise,
      balanceAfterPaise: partner.balancePaise,
      reason: side === 'out' ? 'client_funding' : 'reseller_funding',
      reference: `transfer:${transferId}:${side}`,
      clientId,
    });
  }
}
