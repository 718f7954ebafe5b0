import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  CatalogVoiceDto,
  CatalogVoiceListDto,
  CreateCatalogVoiceDto,
  ListCatalogVoicesQueryDto,
  UpdateCatalogVoiceDto,
} from '@vap/api';
import { AppError, isUuid, VoiceConfigurationId } from '@vap/messages';
import { inTransaction, WriteConflicts } from '@vap/persistence';
import { Voice } from './entities/voice.entity';
import { voiceCatalogFields } from './voice-records';

const RESOURCE = 'Voice';

/** The same provider voice (provider, model, provider_voice_id) is one catalog entry. */
const SAME_PROVIDER_VOICE: WriteConflicts = {
  unique: {
    voices_provider_voice_key: () =>
      AppError.conflict(
        'The catalog already has this provider voice (same provider, model_name and provider_voice_id)',
      ),
  },
};

export function toCatalogVoiceDto(v: Voice): CatalogVoiceDto {
  return {
    ...voiceCatalogFields(v),
    voice_id: v.id,
    status: v.status,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}

/** A voice id as the operator may write it: the bare UUID or the partner-facing `vc_` form. */
export function catalogVoiceUuid(id: string): string | null {
  const bare = VoiceConfigurationId.parse(id) ?? id;
  return isUuid(bare) ? bare.toLowerCase() : null;
}

/**
 * The operator's management of the voice catalog. A voice is never deleted: retiring it hides it from every
 * partner's catalog while the agents that have it keep speaking with it.
 */
@Injectable()
export class CatalogVoicesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  add(input: CreateCatalogVoiceDto): Promise<CatalogVoiceDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const id = randomUUID();
        await em.insert(Voice, {
          id,
          displayName: input.display_name,
          description: input.description ?? '',
          provider: input.provider,
          modelName: input.model_name,
          tier: input.tier,
          providerVoiceId: input.provider_voice_id,
          speed: input.speed ?? 1,
          volume: input.volume ?? 1,
          language: input.language,
          gender: input.gender,
          previewText: input.preview_text,
          status: 'active',
        });
        return toCatalogVoiceDto(await em.findOneByOrFail(Voice, { id }));
      },
      SAME_PROVIDER_VOICE,
    );
  }

  /** Changes take effect for the agents that have the voice from their next call. */
  update(id: string, input: UpdateCatalogVoiceDto): Promise<CatalogVoiceDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const voice = await this.find(em, id);
        const changes: Partial<Voice> = {
          displayName: input.display_name,
          description: input.description,
          provider: input.provider,
          modelName: input.model_name,
          tier: input.tier,
          providerVoiceId: input.provider_voice_id,
          speed: input.speed,
          volume: input.volume,
          language: input.language,
          gender: input.gender,
          previewText: input.preview_text,
        };
        for (const [key, value] of Object.entries(changes)) {
          if (value !== undefined) (voice as unknown as Record<string, unknown>)[key] = value;
        }
        await em.save(voice);
        return toCatalogVoiceDto(await em.findOneByOrFail(Voice, { id: voice.id }));
      },
      SAME_PROVIDER_VOICE,
    );
  }

  /** Offered to no one from now on; agents that have it keep it. Retiring a retired voice changes nothing. */
  retire(id: string): Promise<CatalogVoiceDto> {
    return this.dataSource.transaction(async (em) => {
      const voice = await this.find(em, id);
      if (voice.status !== 'retired') {
        voice.status = 'retired';
        await em.save(voice);
      }
      return toCatalogVoiceDto(await em.findOneByOrFail(Voice, { id: voice.id }));
    });
  }

  async list(query: ListCatalogVoicesQueryDto): Promise<CatalogVoiceListDto> {
    const qb = this.dataSource.getRepository(Voice).createQueryBuilder('v');
    if (query.status) qb.andWhere('v.status = :status', { status: query.status });
    if (query.provider) qb.andWhere('v.provider = :provider', { provider: query.provider });
    if (query.tier) qb.andWhere('v.tier = :tier', { tier: query.tier });
    const voices = await qb
      .orderBy('v.provider')
      .addOrderBy('v.language')
      .addOrderBy('v.display_name')
      .addOrderBy('v.id')
      .getMany();
    return { voices: voices.map(toCatalogVoiceDto) };
  }

  private async find(em: EntityManager, id: string): Promise<Voice> {
    const uuid = catalogVoiceUuid(id);
    const voice = uuid
      ? await em
          .getRepository(Voice)
          .createQueryBuilder('v')
          .where('v.id = :uuid', { uuid })
          .setLock('pessimistic_write')
          .getOne()
      : null;
    if (!voice) throw AppError.notFound(RESOURCE);
    return voice;
  }
}
