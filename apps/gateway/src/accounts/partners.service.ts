import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  CreatedApiKeyDto,
  CreatedPartnerDto,
  CreatePartnerDto,
  LedgerEntryType,
  PartnerDto,
  UpdatePartnerDto,
} from '@vap/api';
import { AppError, DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { ApiKeyCache } from '../auth/api-key-cache';
import { ApiKeysService, toApiKeySummary } from './api-keys.service';
import { LedgerEntry } from './entities/ledger-entry.entity';
import { Partner } from './entities/partner.entity';

export const rupeesToPaise = (inr: number) => Math.round(inr * 100);
export const paiseToRupees = (paise: number) => paise / 100;

export function toPartnerDto(p: Partner): PartnerDto {
  return {
    id: p.id,
    name: p.name,
    status: p.status,
    balance_inr: paiseToRupees(p.balancePaise),
    concurrency_limit: p.concurrencyLimit,
    voice_tier: p.voiceTier,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    version: p.version,
    reseller: p.isReseller ?? false,
    reseller_id: p.resellerId ?? null,
    price_per_minute_inr: p.pricePerMinutePaise == null ? null : paiseToRupees(p.pricePerMinutePaise),
  };
}

/** Partners (accounts), their balance ledger and keys, as the operator manages them. */
@Injectable()
export class PartnersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly apiKeys: ApiKeysService,
    private readonly outbox: OutboxService,
    private readonly keyCache: ApiKeyCache,
  ) {}

  async create(input: CreatePartnerDto): Promise<CreatedPartnerDto> {
    return this.dataSource.transaction(async (em) => {
      const partner = em.create(Partner, {
        id: randomUUID(),
        name: input.name,
        status: input.status ?? 'approved',
        balancePaise: rupeesToPaise(input.balance_inr ?? 0),
        concurrencyLimit: input.concurrency_limit ?? 5,
        voiceTier: input.voice_tier ?? 'standard',
      });
      await em.save(partner);
      if (partner.balancePaise > 0) {
        await this.writeLedger(em, partner, partner.balancePaise, 'top_up', 'opening_balance');
      }
      const { key, record } = await this.apiKeys.issue(em, partner.id, 'default', null, {
        via: 'operator',
      });
      await this.outbox.record(em, DomainEvents.partnerCreated, partner.id, toPartnerDto(partner));
      return { partner: toPartnerDto(partner), api_key: key, key: toApiKeySummary(record) };
    });
  }

  async update(id: string, input: UpdatePartnerDto): Promise<PartnerDto> {
    let changedClients: string[] = [];
    const updated = await this.dataSource.transaction(async (em) => {
      // A status change may hold a reseller's clients: their rows are locked before the reseller's, in the
      // order a client's funding and call charge take them (client, then reseller), so none of them deadlock.
      if (input.status !== undefined) {
        await em.query(
          `SELECT id FROM ${tableOf(em, 'partners')} WHERE reseller_id = $1 ORDER BY id FOR UPDATE`,
          [id],
        );
      }
      const partner = await em.findOne(Partner, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!partner) throw AppError.notFound('Partner');
      const wasApproved = partner.status === 'approved';
      if (input.balance_inr !== undefined) {
        const delta = rupeesToPaise(input.balance_inr) - partner.balancePaise;
        partner.balancePaise += delta;
        // Setting a higher balance is the operator's top-up; a lower one an adjustment.
        if (delta > 0) await this.writeLedger(em, partner, delta, 'top_up', 'operator_top_up');
        if (delta < 0) await this.writeLedger(em, partner, delta, 'adjustment', 'operator_adjustment');
      }
      if (input.name !== undefined) partner.name = input.name;
      // Suspending an account already suspended (by its reseller, or with it) makes the suspension the
      // operator's own: a reseller may not lift it from its client, nor does approving the reseller.
      if (input.status !== undefined && (input.status !== partner.status || input.status === 'suspended')) {
        partner.status = input.status;
        partner.suspendedBy = input.status === 'suspended' ? 'operator' : null;
      }
      if (input.reseller !== undefined) await this.setReseller(em, partner, input.reseller);
      if (input.concurrency_limit !== undefined) partner.concurrencyLimit = input.concurrency_limit;
      if (input.voice_tier !== undefined) partner.voiceTier = input.voice_tier;
      await em.save(partner);
      await this.outbox.record(em, DomainEvents.partnerUpdated, partner.id, toPartnerDto(partner));
      if (partner.isReseller && wasApproved !== (partner.status === 'approved')) {
        changedClients = await this.holdClients(em, partner.id, partner.status !== 'approved');
      }
      return toPartnerDto(partner);
    });
    // At once here; the other replicas drop them when the events above reach them.
    this.keyCache.forgetPartner(id);
    for (const clientId of changedClients) this.keyCache.forgetPartner(clientId);
    return updated;
  }

  /**
   * A reseller's clients stop with it: when the reseller leaves approved, its approved clients are suspended
   * with it (suspended_by 'reseller_account'), and when it is approved again exactly those are approved again;
   * a client the reseller or the operator suspended stays suspended. Each is a change of the client's own
   * row and event, so everything that reads an account's status (its keys, its console, the calls service's
   * standing, campaigns) stops and resumes it without knowing about resellers. The ids changed.
   */
  private async holdClients(em: EntityManager, resellerId: string, hold: boolean): Promise<string[]> {
    const clients = await em.find(Partner, {
      where: hold
        ? { resellerId, status: 'approved' }
        : { resellerId, status: 'suspended', suspendedBy: 'reseller_account' },
      order: { createdAt: 'ASC', id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    for (const client of clients) {
      client.status = hold ? 'suspended' : 'approved';
      client.suspendedBy = hold ? 'reseller_account' : null;
      await em.save(client);
      await this.outbox.record(em, DomainEvents.partnerUpdated, client.id, toPartnerDto(client));
    }
    return clients.map((c) => c.id);
  }

  /** Marks or unmarks a reseller: a client is never one, and a reseller with clients stays one. */
  private async setReseller(em: EntityManager, partner: Partner, reseller: boolean): Promise<void> {
    if (reseller === partner.isReseller) return;
    if (reseller && partner.resellerId) {
      throw AppError.validation(
        [{ field: 'reseller', message: 'a client account of a reseller cannot be a reseller' }],
        'A client account of a reseller cannot be a reseller',
      );
    }
    if (!reseller && (await em.exists(Partner, { where: { resellerId: partner.id } }))) {
      throw AppError.conflict('This reseller still has client accounts; it stays a reseller');
    }
    partner.isReseller = reseller;
  }

  async get(id: string): Promise<Partner> {
    const partner = await this.dataSource.getRepository(Partner).findOne({ where: { id } });
    if (!partner) throw AppError.notFound('Partner');
    return partner;
  }

  async list(): Promise<PartnerDto[]> {
    const partners = await this.dataSource
      .getRepository(Partner)
      .find({ order: { createdAt: 'ASC' }, take: 500 });
    return partners.map(toPartnerDto);
  }

  async issueKey(
    partnerId: string,
    name: string | null,
    scopes: readonly string[] | null = null,
  ): Promise<CreatedApiKeyDto> {
    await this.get(partnerId);
    return this.dataSource.transaction(async (em) => {
      const { key, record } = await this.apiKeys.issue(em, partnerId, name, scopes, { via: 'operator' });
      return { api_key: key, key: toApiKeySummary(record) };
    });
  }

  private async writeLedger(
    em: EntityManager,
    partner: Partner,
    amountPaise: number,
    type: LedgerEntryType,
    reason: string,
  ): Promise<void> {
    await em.insert(LedgerEntry, {
      id: randomUUID(),
      partnerId: partner.id,
      type,
      amountPaise,
      balanceAfterPaise: partner.balancePaise,
      reason,
      reference: null,
    });
  }
}
