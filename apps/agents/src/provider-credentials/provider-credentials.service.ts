import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  CreateProviderCredentialDto,
  ProviderCredentialDeletedDto,
  ProviderCredentialListDto,
  ProviderCredentialRecordDto,
  ProviderCredentialWithSecretRecordDto,
  RotateProviderCredentialDto,
  UpdateProviderCredentialDto,
} from '@vap/api';
import { isPublicHostName } from '@vap/egress';
import { AppError, CredentialProviderName, ProviderCredentialId } from '@vap/messages';
import { inTransaction } from '@vap/persistence';
import { originOf } from '../common/url-origin';
import { ProviderCredential } from './entities/provider-credential.entity';
import { ModelDeployment } from './model-deployment';
import { toProviderCredentialDto } from './provider-credential-records';
import { ProviderKeyChecker } from './provider-key-check';
import { ProviderKeySealer } from './provider-key-sealer';

/** A stored credential, opened for one plan: the key ('' for a custom server without one) and where it goes. */
export interface OpenedCredential {
  apiKey: string;
  region: string | null;
  /** custom: the partner's model server. */
  baseUrl: string | null;
  /** custom: the secret its requests are signed with. */
  signingSecret?: string;
}

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

/** What a rotation stores: the key ('' for none), a custom server's URL and secret (newSecret: answered once). */
interface NextCredential {
  apiKey: string;
  baseUrl: string | null;
  signingSecret?: string;
  newSecret: boolean;
}

function invalid(field: string, message: string): AppError {
  return AppError.validation([{ field, message }]);
}

/**
 * An account's provider credentials: speech and model providers' keys, each checked live with its provider before
 * it is stored or replaced, sealed at rest, shown only as its last four characters; and (`custom`) the account's
 * own model server, checked with a signed request, its signing secret shown once. Calls started afterwards use
 * them (agents.speech.plan, agents.model.plan); calls running keep what they started with.
 */
@Injectable()
export class ProviderCredentialsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly checker: ProviderKeyChecker,
    private readonly sealer: ProviderKeySealer,
    private readonly models: ModelDeployment,
  ) {}

  async create(
    partnerId: string,
    input: CreateProviderCredentialDto,
  ): Promise<ProviderCredentialWithSecretRecordDto> {
    const region = input.region ?? null;
    const apiKey = input.api_key ?? null;
    const baseUrl = this.serverUrl(input.provider, input.base_url);
    // The cheap refusal first: no key goes to a provider for a credential that could not be stored anyway.
    if (await this.dataSource.manager.existsBy(ProviderCredential, { partnerId, provider: input.provider })) {
      throw alreadyStored(input.provider);
    }
    const signingSecret = baseUrl ? this.sealer.generateSigningSecret() : undefined;
    await this.checker.check({
      provider: input.provider,
      apiKey: apiKey ?? '',
      region,
      baseUrl,
      signingSecret,
    });
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
          keyLast4: apiKey && apiKey.slice(-4),
          keySealed: apiKey && this.sealer.seal(id, apiKey),
          baseUrl,
          signingSecretSealed: signingSecret ? this.sealer.sealSigningSecret(id, signingSecret) : null,
          checkedAt: new Date(),
        });
        const dto = toProviderCredentialDto(await em.findOneByOrFail(ProviderCredential, { id }));
        return { provider_credential: signingSecret ? { ...dto, signing_secret: signingSecret } : dto };
      },
      // Two creations for one provider at once: the second loses here.
      { unique: { provider_credentials_partner_provider_key: () => alreadyStored(input.provider) } },
    );
  }

  /**
   * A custom server's base URL, its host public unless the deployment lets partners' servers be private (as custom
   * functions); null for every other provider, which may not name one (the platform decides where their keys go).
   */
  private serverUrl(provider: CredentialProviderName, baseUrl: string | undefined): string | null {
    if (provider !== 'custom') {
      if (baseUrl !== undefined)
        throw invalid(
          'base_url',
          'base_url applies only to provider custom: the platform decides where a provider’s keys are sent',
        );
      return null;
    }
    if (baseUrl === undefined)
      throw invalid(
        'base_url',
        'base_url is required for provider custom (your model server’s HTTPS base URL)',
      );
    if (!this.models.allowPrivateNetworks && !isPublicHostName(new URL(baseUrl).hostname))
      throw invalid('base_url', 'base_url must name a public host');
    return baseUrl;
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

  /**
   * PUT: a new key for the same provider, checked live first; a refused key leaves the stored one as it was. A
   * custom server may move (base_url) and change or drop its key; moved to another origin it gets a new signing
   * secret (answered once), and its stored key is not carried there unless sent again.
   */
  async rotate(
    partnerId: string,
    id: string,
    input: RotateProviderCredentialDto,
  ): Promise<ProviderCredentialWithSecretRecordDto> {
    const current = await findCredential(this.dataSource.manager, partnerId, id);
    const region = input.region === undefined ? current.region : input.region;
    const next =
      current.provider === 'custom' ? this.nextServer(current, input) : this.nextKey(current, input);
    await this.checker.check({
      provider: current.provider,
      region,
      apiKey: next.apiKey,
      baseUrl: next.baseUrl,
      signingSecret: next.signingSecret,
    });
    return inTransaction(
      this.dataSource,
      async (em) => {
        // Deleted meanwhile: 404, never a resurrection.
        const row = await findCredential(em, partnerId, id, true);
        row.region = region;
        row.keyLast4 = next.apiKey ? next.apiKey.slice(-4) : null;
        row.keySealed = next.apiKey ? this.sealer.seal(row.id, next.apiKey) : null;
        if (next.baseUrl) row.baseUrl = next.baseUrl;
        if (next.newSecret && next.signingSecret)
          row.signingSecretSealed = this.sealer.sealSigningSecret(row.id, next.signingSecret);
        row.checkedAt = new Date();
        await em.save(row);
        const dto = toProviderCredentialDto(await em.findOneByOrFail(ProviderCredential, { id }));
        return {
          provider_credential:
            next.newSecret && next.signingSecret ? { ...dto, signing_secret: next.signingSecret } : dto,
        };
      },
      {},
    );
  }

  /** A provider's new key: required, and nothing else may change but its region. */
  private nextKey(current: ProviderCredential, input: RotateProviderCredentialDto): NextCredential {
    if (input.base_url !== undefined) this.serverUrl(current.provider, input.base_url);
    if (input.api_key === undefined || input.api_key === null)
      throw invalid('api_key', 'api_key is required');
    return { apiKey: input.api_key, baseUrl: null, newSecret: false };
  }

  /**
   * A custom server's next state: its URL (sent or kept), its key (sent, null for none, or kept while the
   * origin stays), its signing secret (new when the origin moves, else kept).
   */
  private nextServer(current: ProviderCredential, input: RotateProviderCredentialDto): NextCredential {
    const storedUrl = current.baseUrl ?? '';
    const baseUrl =
      input.base_url === undefined ? storedUrl : (this.serverUrl('custom', input.base_url) ?? '');
    const moved = originOf(baseUrl) !== originOf(storedUrl);
    let apiKey = '';
    if (input.api_key !== undefined) apiKey = input.api_key ?? '';
    else if (current.keySealed) {
      if (moved)
        throw invalid(
          'api_key',
          `api_key must be sent again (or null for none) to move the model server to ${originOf(baseUrl)}: ` +
            `the stored key was given for ${originOf(storedUrl)}`,
        );
      apiKey = this.sealer.open(current.id, current.keySealed);
    }
    const signingSecret =
      moved || !current.signingSecretSealed
        ? this.sealer.generateSigningSecret()
        : this.sealer.openSigningSecret(current.id, current.signingSecretSealed);
    return { apiKey, baseUrl, signingSecret, newSecret: moved || !current.signingSecretSealed };
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

  /** The account's credentials, unsealed, by provider: for the speech or model plan of a call only. */
  async openKeys(partnerId: string): Promise<Map<CredentialProviderName, OpenedCredential>> {
    const rows = await this.dataSource.getRepository(ProviderCredential).findBy({ partnerId });
    return new Map(
      rows.map((r) => {
        const opened: OpenedCredential = {
          apiKey: r.keySealed ? this.sealer.open(r.id, r.keySealed) : '',
          region: r.region,
          baseUrl: r.baseUrl,
        };
        if (r.signingSecretSealed)
          opened.signingSecret = this.sealer.openSigningSecret(r.id, r.signingSecretSealed);
        return [r.provider, opened];
      }),
    );
  }

  /** The providers the account has a credential for (`custom`: its own model server); nothing is opened. */
  async providersWithKeys(
    partnerId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Set<CredentialProviderName>> {
    const rows = await em
      .getRepository(ProviderCredential)
      .find({ where: { partnerId }, select: { provider: true } });
    return new Set(rows.map((r) => r.provider));
  }
}
