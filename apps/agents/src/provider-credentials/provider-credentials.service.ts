import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  CreateProviderCredentialDto,
  ProviderCredentialDeletedDto,
  ProviderCredentialListDto,
  ProviderCredentialRecordDto,
  RotateProviderCredentialDto,
  UpdateProviderCredentialDto,
} from '@vap/api';
import { AppError, ProviderCredentialId, SpeechProviderName } from '@vap/messages';
import { inTransaction } from '@vap/persistence';
import { ProviderCredential } from './entities/provider-credential.entity';
import { toProviderCredentialDto } from './provider-credential-records';
import { ProviderKeyChecker } from './provider-key-check';
import { ProviderKeySealer } from './provider-key-sealer';

const RESOURCE = 'Provider credential';

function alreadyStored(provider: string): AppError {
  return AppError.conflict(
    `This account already has a ${provider} key; rotate it with PUT /provider-credentials/{id} or delete it first`,
  );
}

/** The account's credential, or 404 NOT_FOUND (also for a malformed id or another account's credential). */
async function findCredential(
  em: EntityManager,
  partnerId: string,
  id: string,
  lock = false,
): Promise<ProviderCredential> {
  if (!ProviderCredentialId.is(id)) throw AppError.notFound(RESOURCE);
  const qb = em
    .getRepository(ProviderCredential)
    .createQueryBuilder('c')
    .where('c.id = :id AND c.partner_id = :partnerId', { id, partnerId });
  if (lock) qb.setLock('pessimistic_write');
  const row = await qb.getOne();
  if (!row) throw AppError.notFound(RESOURCE);
  return row;
}

/**
 * An account's speech provider keys: each checked live with its provider before it is stored or replaced,
 * sealed at rest, shown only as its last four characters. Calls started afterwards use the key (agents.speech.plan);
 * calls running keep the key they started with.
 */
@Injectable()
export class ProviderCredentialsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly checker: ProviderKeyChecker,
    private readonly sealer: ProviderKeySealer,
  ) {}

  async create(partnerId: string, input: CreateProviderCredentialDto): Promise<ProviderCredentialRecordDto> {
    const region = input.region ?? null;
    // The cheap refusal first: no key goes to a provider for a credential that could not be stored anyway.
    if (await this.dataSource.manager.existsBy(ProviderCredential, { partnerId, provider: input.provider })) {
      throw alreadyStored(input.provider);
    }
    await this.checker.check({ provider: input.provider, apiKey: input.api_key, region });
    const id = ProviderCredentialId.format(randomUUID());
    return inTransaction(
      this.dataSource,
      async (em) => {
        await em.insert(ProviderCredential, {
          id,
          partnerId,
          provider: input.provider,
          label: input.label ?? null,
          region,
          keyLast4: input.api_key.slice(-4),
          keySealed: this.sealer.seal(id, input.api_key),
          checkedAt: new Date(),
        });
        return {
          provider_credential: toProviderCredentialDto(await em.findOneByOrFail(ProviderCredential, { id })),
        };
      },
      // Two creations for one provider at once: the second loses here.
      { unique: { provider_credentials_partner_provider_key: () => alreadyStored(input.provider) } },
    );
  }

  async list(partnerId: string): Promise<ProviderCredentialListDto> {
    const rows = await this.dataSource
      .getRepository(ProviderCredential)
      .find({ where: { partnerId }, order: { provider: 'ASC' } });
    return { provider_credentials: rows.map(toProviderCredentialDto) };
  }

  async get(partnerId: string, id: string): Promise<ProviderCredentialRecordDto> {
    return {
      provider_credential: toProviderCredentialDto(
        await findCredential(this.dataSource.manager, partnerId, id),
      ),
    };
  }

  /** PUT: a new key for the same provider, checked live first; a refused key leaves the stored one as it was. */
  async rotate(
    partnerId: string,
    id: string,
    input: RotateProviderCredentialDto,
  ): Promise<ProviderCredentialRecordDto> {
    const current = await findCredential(this.dataSource.manager, partnerId, id);
    const region = input.region === undefined ? current.region : input.region;
    await this.checker.check({ provider: current.provider, apiKey: input.api_key, region });
    return inTransaction(
      this.dataSource,
      async (em) => {
        // Deleted meanwhile: 404, never a resurrection.
        const row = await findCredential(em, partnerId, id, true);
        row.region = region;
        row.keyLast4 = input.api_key.slice(-4);
        row.keySealed = this.sealer.seal(row.id, input.api_key);
        row.checkedAt = new Date();
        await em.save(row);
        return {
          provider_credential: toProviderCredentialDto(await em.findOneByOrFail(ProviderCredential, { id })),
        };
      },
      {},
    );
  }

  /** PATCH: the label only. */
  async update(
    partnerId: string,
    id: string,
    input: UpdateProviderCredentialDto,
  ): Promise<ProviderCredentialRecordDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const row = await findCredential(em, partnerId, id, true);
        row.label = input.label ?? null;
        await em.save(row);
        return {
          provider_credential: toProviderCredentialDto(await em.findOneByOrFail(ProviderCredential, { id })),
        };
      },
      {},
    );
  }

  /**
   * Deletes the key. Calls started afterwards fall back: to the platform's key when the account's tier may use it,
   * else to the offline stand-in where the deployment allows it, else to the deployment's default speech.
   */
  async remove(partnerId: string, id: string): Promise<ProviderCredentialDeletedDto> {
    const row = await findCredential(this.dataSource.manager, partnerId, id);
    const { affected } = await this.dataSource
      .getRepository(ProviderCredential)
      .delete({ id: row.id, partnerId });
    if (!affected) throw AppError.notFound(RESOURCE);
    return { id: row.id, message: 'Provider credential deleted' };
  }

  /** The account's keys, unsealed, by provider: for the speech plan of a call only. */
  async openKeys(
    partnerId: string,
  ): Promise<Map<SpeechProviderName, { apiKey: string; region: string | null }>> {
    const rows = await this.dataSource.getRepository(ProviderCredential).findBy({ partnerId });
    return new Map(
      rows.map((r) => [r.provider, { apiKey: this.sealer.open(r.id, r.keySealed), region: r.region }]),
    );
  }

  /** The providers the account has a key for (no key is opened). */
  async providersWithKeys(
    partnerId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Set<SpeechProviderName>> {
    const rows = await em
      .getRepository(ProviderCredential)
      .find({ where: { partnerId }, select: { provider: true } });
    return new Set(rows.map((r) => r.provider));
  }
}
