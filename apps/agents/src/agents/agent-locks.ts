import { EntityManager, IsNull } from 'typeorm';
import { AppError, isUuid } from '@vap/messages';
import { Agent } from './entities/agent.entity';

/**
 * How to lock agent rows. `nowait` is for changes to extraction keys and attachments: a row someone
 * else is changing fails at once (409 WRITE_CONFLICT) instead of waiting and then overwriting the other
 * change's basis. `wait` is for plain field updates, which can safely queue.
 */
export type AgentLock = 'wait' | 'nowait';

/** Locks live agents of the partner (FOR UPDATE), in id order. Unknown, foreign or deleted ids are left out. */
export async function lockAgents(
  em: EntityManager,
  partnerId: string,
  ids: string[],
  lock: AgentLock,
): Promise<Agent[]> {
  const valid = [...new Set(ids.filter((id) => isUuid(id)))].sort();
  if (valid.length === 0) return [];
  const qb = em
    .getRepository(Agent)
    .createQueryBuilder('a')
    .where('a.id IN (:...ids)', { ids: valid })
    .andWhere('a.partner_id = :partnerId', { partnerId })
    .andWhere('a.deleted_at IS NULL')
    .orderBy('a.id')
    .setLock('pessimistic_write');
  if (lock === 'nowait') qb.setOnLocked('nowait');
  return qb.getMany();
}

/** Locks one live agent of the partner, or 404 NOT_FOUND (also for another partner's or a deleted agent). */
export async function lockAgent(
  em: EntityManager,
  partnerId: string,
  id: string,
  lock: AgentLock,
): Promise<Agent> {
  const [agent] = await lockAgents(em, partnerId, [id], lock);
  if (!agent) throw AppError.notFound('Agent');
  return agent;
}

/** Reads one live agent of the partner without locking, or 404 NOT_FOUND. */
export async function findAgent(em: EntityManager, partnerId: string, id: string): Promise<Agent> {
  const agent = isUuid(id) ? await em.findOneBy(Agent, { id, partnerId, deletedAt: IsNull() }) : null;
  if (!agent) throw AppError.notFound('Agent');
  return agent;
}
