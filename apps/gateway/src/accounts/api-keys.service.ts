import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ApiKeySummaryDto } from '@vap/contracts';
import { apiKeyMatches, generateApiKey, isWellFormedApiKey, lookupPrefixOf } from '../auth/api-key-secrets';
import { ApiKey } from './entities/api-key.entity';
import { Partner } from './entities/partner.entity';

export function toApiKeySummary(key: ApiKey): ApiKeySummaryDto {
  return {
    id: key.id,
    prefix: key.lookupPrefix,
    name: key.name,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

@Injectable()
export class ApiKeysService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Issues a key for the partner; the caller shows `key` once, only the hash is kept. */
  async issue(
    em: EntityManager,
    partnerId: string,
    name: string | null,
  ): Promise<{ key: string; record: ApiKey }> {
    const generated = generateApiKey();
    const record = em.create(ApiKey, {
      id: randomUUID(),
      partnerId,
      lookupPrefix: generated.lookupPrefix,
      keyHash: generated.hash,
      name,
      lastUsedAt: null,
      revokedAt: null,
    });
    await em.save(record);
    return { key: generated.key, record };
  }

  /** The key's row and partner when the presented key is valid and not revoked, else null. */
  async authenticate(presented: string): Promise<{ key: ApiKey; partner: Partner } | null> {
    if (!isWellFormedApiKey(presented)) return null;
    const key = await this.dataSource.getRepository(ApiKey).findOne({
      where: { lookupPrefix: lookupPrefixOf(presented), revokedAt: IsNull() },
      relations: { partner: true },
    });
    if (!key?.partner || !apiKeyMatches(presented, key.keyHash)) return null;
    this.touch(key);
    return { key, partner: key.partner };
  }

  /** Records last use at most once a minute per key, off the request's critical path. */
  private touch(key: ApiKey): void {
    if (key.lastUsedAt && Date.now() - key.lastUsedAt.getTime() < 60_000) return;
    void this.dataSource
      .createQueryBuilder()
      .update(ApiKey)
      .set({ lastUsedAt: () => 'now()' })
      .where('id = :id', { id: key.id })
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
    }
    return key;
  }
}
