import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ApiKeySummaryDto, MAX_ACTIVE_API_KEYS } from '@vap/api';
import { AppError, ErrorCode, expandScopes } from '@vap/messages';
import { ApiKeyCache, CachedApiKey } from '../auth/api-key-cache';
import {
  apiKeyMatches,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  lookupPrefixOf,
} from '../auth/api-key-secrets';
import { ApiKey } from './entities/api-key.entity';
import { Partner } from './entities/partner.entity';
import { toPartnerContext } from './partner-context';

export function toApiKeySummary(key: ApiKey): ApiKeySummaryDto {
  return {
    id: key.id,
    prefix: key.lookupPrefix,
    name: key.name,
    scopes: key.scopes,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** Who issues a key: the platform's operator (admin API), a console user of the account, or its reseller. */
export type KeyIssuer = { via: 'operator' } | { via: 'reseller' } | { via: 'console'; userId: string };

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: ApiKeyCache,
  ) {}

  /**
   * Issues a key for the partner; the caller shows `key` once, only the hash is kept. `scopes` were
   * validated against API_KEY_SCOPES; null or absent: full access. 429 LIMIT_REACHED when the account
   * already holds MAX_ACTIVE_API_KEYS active keys (counted under a lock of the account's row, so two issues
   * at once cannot both pass).
   */
  async issue(
    em: EntityManager,
    partnerId: string,
    name: string | null,
    scopes: readonly string[] | null,
    issuer: KeyIssuer,
  ): Promise<{ key: string; record: ApiKey }> {
    await em
      .getRepository(Partner)
      .findOne({ where: { id: partnerId }, lock: { mode: 'pessimistic_write' } });
    const active = await em.getRepository(ApiKey).count({ where: { partnerId, revokedAt: IsNull() } });
    if (active >= MAX_ACTIVE_API_KEYS) {
      throw new AppError(
        ErrorCode.LIMIT_REACHED,
        `This account already has ${MAX_ACTIVE_API_KEYS} active API keys, the most it may hold; revoke one first`,
      );
    }
    const generated = generateApiKey();
    const record = em.create(ApiKey, {
      id: randomUUID(),
      partnerId,
      lookupPrefix: generated.lookupPrefix,
      keyHash: generated.hash,
      name,
      scopes: scopes ? [...new Set(scopes)].sort() : null,
      createdVia: issuer.via,
      createdByUserId: issuer.via === 'console' ? issuer.userId : null,
      lastUsedAt: null,
      revokedAt: null,
    });
    await em.save(record);
    return { key: generated.key, record };
  }

  /** Issues a key in a transaction of its own. */
  issueNow(
    partnerId: string,
    name: string | null,
    scopes: readonly string[] | null,
    issuer: KeyIssuer,
  ): Promise<{ key: string; record: ApiKey }> {
    return this.dataSource.transaction((em) => this.issue(em, partnerId, name, scopes, issuer));
  }

  /**
   * The key and its account when the presented key is valid and not revoked, else null: from the cache
   * (ApiKeyCache) when this replica has seen the key lately, else from Postgres.
   */
  async authenticate(presented: string): Promise<CachedApiKey | null> {
    if (!isWellFormedApiKey(presented)) return null;
    const hash = hashApiKey(presented);
    const cached = this.cache.get(hash);
    if (cached) {
      this.touch(cached);
      return cached;
    }
    const read = this.cache.readMark();
    const key = await this.dataSource.getRepository(ApiKey).findOne({
      where: { lookupPrefix: lookupPrefixOf(presented), revokedAt: IsNull() },
      relations: { partner: true },
    });
    if (!key?.partner || !apiKeyMatches(presented, key.keyHash)) return null;
    const found: CachedApiKey = {
      keyId: key.id,
      partner: toPartnerContext(key.partner),
      scopes: key.scopes ? expandScopes(key.scopes) : null,
      lastUsedAt: key.lastUsedAt?.getTime() ?? null,
    };
    this.touch(found);
    this.cache.set(hash, found, read);
    return found;
  }

  /** Records last use at most once a minute per key, off the request's critical path. */
  private touch(key: CachedApiKey): void {
    const now = Date.now();
    if (key.lastUsedAt !== null && now - key.lastUsedAt < 60_000) return;
    key.lastUsedAt = now;
    void this.dataSource
      .createQueryBuilder()
      .update(ApiKey)
      .set({ lastUsedAt: () => 'now()' })
      .where('id = :id', { id: key.keyId })
      .execute()
      .catch(() => undefined);
  }

  async list(partnerId: string): Promise<ApiKey[]> {
    return this.dataSource.getRepository(ApiKey).find({ where: { partnerId }, order: { createdAt: 'ASC' } });
  }

  async revoke(partnerId: string, keyId: string): Promise<ApiKey | null> {
    const repo = this.dataSource.getRepository(ApiKey);
    const key = await repo.findOne({ where: { id: keyId, partnerId } });
    if (!key) return null;
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await repo.save(key);
      this.cache.forgetPartnerEverywhere(partnerId);
    }
    return key;
  }
}
