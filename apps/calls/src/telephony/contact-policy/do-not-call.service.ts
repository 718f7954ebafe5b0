import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { DoNotCallEntryDto, doNotCallPrefixesOf } from '@vap/api';
import { AppError, DoNotCallId } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { lockDoNotCallList } from './do-not-call-lock';
import { DoNotCallEntry } from './entities/do-not-call-entry.entity';

export function toDoNotCallDto(entry: DoNotCallEntry): DoNotCallEntryDto {
  return {
    id: entry.id,
    kind: entry.kind,
    number: entry.kind === 'number' ? entry.value : null,
    prefix: entry.kind === 'prefix' ? entry.value : null,
    reason: entry.reason,
    source: entry.source,
    note: entry.note,
    created_at: entry.createdAt.toISOString(),
    updated_at: entry.updatedAt.toISOString(),
  };
}

/**
 * The entries covering `number`, longest first: its own entry and every prefix it starts with. One probe of
 * the (partner_id, value, kind) index with the number's at most 15 prefixes.
 */
export async function doNotCallMatches(
  em: EntityManager,
  partnerId: string,
  number: string,
): Promise<DoNotCallEntry[]> {
  return em
    .getRepository(DoNotCallEntry)
    .createQueryBuilder('d')
    .where('d.partner_id = :partnerId', { partnerId })
    .andWhere('d.value = ANY(:prefixes)', { prefixes: doNotCallPrefixesOf(number) })
    .andWhere("(d.kind = 'prefix' OR d.value = :number)", { number })
    .orderBy('length(d.value)', 'DESC')
    .addOrderBy('d.kind', 'ASC')
    .getMany();
}

/** The partner's entry `id`, locked for update when asked: 404 when it is another account's or none. */
export async function findOwnDoNotCallEntry(
  em: EntityManager,
  partnerId: string,
  id: string,
  lock = false,
): Promise<DoNotCallEntry> {
  const entry = await em.findOne(DoNotCallEntry, {
    where: { id, partnerId },
    ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!entry) throw AppError.notFound('Do-not-call entry');
  return entry;
}

/**
 * A callee's opt-out during a call (the voice runtime's), added to the account's do-not-call list under its
 * lock (see do-not-call-lock), as CreateDoNotCallEntry adds the partner's own entries.
 */
@Injectable()
export class DoNotCallService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The callee asked during a call not to be called again: the number joins the list (reason opt_out, source
   * call). Already listed, it stays as it was. Answers the entry's id.
   */
  async optOut(partnerId: string, number: string, callId: string): Promise<string> {
    const table = tableOf(this.dataSource.manager, 'do_not_call');
    const [inserted] = await this.dataSource.transaction(async (em) => {
      await lockDoNotCallList(em, partnerId);
      return (await em.query(
        `INSERT INTO ${table} (id, partner_id, kind, value, reason, source, note)
         VALUES ($1, $2, 'number', $3, 'opt_out', 'call', $4)
         ON CONFLICT (partner_id, value, kind) DO NOTHING RETURNING id`,
        [DoNotCallId.format(randomUUID()), partnerId, number, `asked during call ${callId}`],
      )) as { id: string }[];
    });
    if (inserted) return inserted.id;
    const existing = await this.dataSource
      .getRepository(DoNotCallEntry)
      .findOneByOrFail({ partnerId, kind: 'number', value: number });
    return existing.id;
  }
}
