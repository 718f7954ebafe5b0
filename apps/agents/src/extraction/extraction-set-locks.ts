import { EntityManager } from 'typeorm';
import { AppError } from '@vap/messages';
import { AgentLock } from '../agents/agent-locks';
import { ExtractionSet } from './entities/extraction-set.entity';

/**
 * Locks one of the partner's sets, or 404 NOT_FOUND. `update` for a change to the set; `share` to keep
 * its keys still while they are checked against an agent it is being attached to.
 */
export async function lockSet(
  em: EntityManager,
  partnerId: string,
  id: string,
  mode: 'update' | 'share',
  lock: AgentLock,
): Promise<ExtractionSet> {
  const qb = em
    .getRepository(ExtractionSet)
    .createQueryBuilder('s')
    .where('s.id = :id AND s.partner_id = :partnerId', { id, partnerId })
    .setLock(mode === 'update' ? 'pessimistic_write' : 'pessimistic_read');
  if (lock === 'nowait') qb.setOnLocked('nowait');
  const set = await qb.getOne();
  if (!set) throw AppError.notFound('Extraction set');
  return set;
}

export async function findSet(em: EntityManager, partnerId: string, id: string): Promise<ExtractionSet> {
  const set = await em.findOneBy(ExtractionSet, { id, partnerId });
  if (!set) throw AppError.notFound('Extraction set');
  return set;
}
