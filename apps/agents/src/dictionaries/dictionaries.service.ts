import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import {
  CreateDictionaryDto,
  DictionaryDeletedDto,
  DictionaryDto,
  DictionaryEntryDto,
  DictionaryLimits,
  DictionaryListDto,
  DictionarySummaryDto,
  ListDictionariesQueryDto,
  UpdateDictionaryDto,
} from '@vap/api';
import { AppError, ErrorCode, ErrorDetail, isUuid } from '@vap/messages';
import { keysetPage, tableOf } from '@vap/persistence';
import { Dictionary, StoredDictionaryEntry } from './entities/dictionary.entity';

export { dictionaryTerms } from './dictionary-terms';

const RESOURCE = 'Dictionary';

/** Entries as stored: only the keys given (no undefined alias or ipa in the JSON). */
function storedEntries(entries: DictionaryEntryDto[]): StoredDictionaryEntry[] {
  return entries.map((e) => ({
    word: e.word,
    ...(e.alias !== undefined ? { alias: e.alias } : {}),
    ...(e.ipa !== undefined ? { ipa: e.ipa } : {}),
  }));
}

export function toDictionarySummaryDto(d: Dictionary): DictionarySummaryDto {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    entry_count: d.entries.length,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

export function toDictionaryDto(d: Dictionary): DictionaryDto {
  return { ...toDictionarySummaryDto(d), entries: d.entries.map((e) => ({ ...e })) };
}

/**
 * Pronunciation dictionaries: an account's words and how to say them. Agents list the ones they use
 * (dictionary_ids); a dictionary a live agent uses cannot be deleted (409 CONFLICT naming the agents), so an
 * agent never points at nothing.
 */
@Injectable()
export class DictionariesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  create(partnerId: string, input: CreateDictionaryDto): Promise<DictionaryDto> {
    return this.dataSource.transaction(async (em) => {
      // Serializes the account's creations, so the count below cannot be passed by concurrent ones.
      await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`agents:dictionaries:${partnerId}`]);
      const count = await em.countBy(Dictionary, { partnerId });
      if (count >= DictionaryLimits.perAccount) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `An account can have at most ${DictionaryLimits.perAccount} dictionaries; delete one first`,
        );
      }
      const id = randomUUID();
      await em.insert(Dictionary, {
        id,
        partnerId,
        name: input.name,
        description: input.description ?? null,
        entries: storedEntries(input.entries ?? []),
      });
      return toDictionaryDto(await em.findOneByOrFail(Dictionary, { id }));
    });
  }

  async get(partnerId: string, id: string): Promise<DictionaryDto> {
    return toDictionaryDto(await this.find(this.dataSource.manager, partnerId, id));
  }

  /**
   * Oldest first, without the entries: a page of full dictionaries (500 entries each) would outgrow a message;
   * GET /dictionaries/{id} answers them.
   */
  async list(partnerId: string, query: ListDictionariesQueryDto): Promise<DictionaryListDto> {
    const qb = this.dataSource
      .getRepository(Dictionary)
      .createQueryBuilder('d')
      .where('d.partner_id = :partnerId', { partnerId });
    const page = await keysetPage(qb, query, { idKind: 'uuid' });
    return { dictionaries: page.rows.map(toDictionarySummaryDto), next_cursor: page.nextCursor };
  }

  update(partnerId: string, id: string, input: UpdateDictionaryDto): Promise<DictionaryDto> {
    return this.dataSource.transaction(async (em) => {
      const dictionary = await this.find(em, partnerId, id, true);
      if (input.name !== undefined) dictionary.name = input.name;
      if (input.description !== undefined) dictionary.description = input.description;
      if (input.entries !== undefined) dictionary.entries = storedEntries(input.entries);
      await em.save(dictionary);
      return toDictionaryDto(await em.findOneByOrFail(Dictionary, { id: dictionary.id }));
    });
  }

  /**
   * Deletes for good, unless a live agent uses it: 409 CONFLICT naming them (the partner removes it from their
   * dictionary_ids first). The row lock makes an agent taking it at the same time either land first (and refuse
   * the delete) or find it gone.
   */
  remove(partnerId: string, id: string): Promise<DictionaryDeletedDto> {
    return this.dataSource.transaction(async (em) => {
      const dictionary = await this.find(em, partnerId, id, true);
      const users: { id: string; agent_name: string }[] = await em.query(
        `SELECT id, agent_name FROM ${tableOf(em, 'agents')}
          WHERE partner_id = $1 AND deleted_at IS NULL AND dictionary_ids @> ARRAY[$2]::uuid[]
          ORDER BY created_at, id LIMIT 11`,
        [partnerId, dictionary.id],
      );
      if (users.length) {
        const named = users
          .slice(0, 10)
          .map((a) => `${a.agent_name} (${a.id})`)
          .join(', ');
        const more = users.length > 10 ? ' and more' : '';
        throw AppError.conflict(
          `The dictionary is used by agent(s) ${named}${more}; remove it from their dictionary_ids first`,
        );
      }
      await em.delete(Dictionary, { id: dictionary.id });
      return { id: dictionary.id, message: 'Dictionary deleted' };
    });
  }

  /**
   * What is wrong with an agent's dictionary_ids: each must be a dictionary of the account. The rows are held
   * (FOR SHARE) until the caller's transaction ends, so a concurrent delete waits and then sees the agent.
   */
  async checkOwn(em: EntityManager, partnerId: string, ids: readonly string[]): Promise<ErrorDetail[]> {
    const valid = ids.filter(isUuid);
    const found = valid.length
      ? await em
          .getRepository(Dictionary)
          .createQueryBuilder('d')
          .select('d.id')
          .where({ id: In(valid), partnerId })
          .setLock('pessimistic_read')
          .getMany()
      : [];
    const own = new Set(found.map((d) => d.id));
    return ids.flatMap((id, i) =>
      own.has(id)
        ? []
        : [
            {
              field: 'dictionary_ids',
              message: `dictionary_ids[${i}] (${id}) does not exist: it is not a dictionary of this account`,
            },
          ],
    );
  }

  private async find(em: EntityManager, partnerId: string, id: string, lock = false): Promise<Dictionary> {
    if (!isUuid(id)) throw AppError.notFound(RESOURCE);
    const qb = em
      .getRepository(Dictionary)
      .createQueryBuilder('d')
      .where('d.id = :id AND d.partner_id = :partnerId', { id, partnerId });
    if (lock) qb.setLock('pessimistic_write');
    const dictionary = await qb.getOne();
    if (!dictionary) throw AppError.notFound(RESOURCE);
    return dictionary;
  }
}
