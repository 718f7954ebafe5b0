import { EntityManager } from 'typeorm';
import { AttachedAgentDto, ExtractionKeyDto, ExtractionSetDto } from '@vap/api';
import { Agent } from '../agents/entities/agent.entity';
import { AgentExtractionSet } from './entities/agent-extraction-set.entity';
import { ExtractionSet } from './entities/extraction-set.entity';

export function toExtractionSetDto(
  s: ExtractionSet,
  attachedAgents: AttachedAgentDto[],
  droppedInlineKeys: ExtractionKeyDto[] = [],
): ExtractionSetDto {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    keys: s.keys,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
    attached_agents: attachedAgents,
    // Campaigns pick extraction sets in the campaigns service; none are attached here.
    attached_campaigns: [],
    dropped_inline_keys: droppedInlineKeys,
  };
}

/** The live agents each set is attached to, in attach order. */
async function attachedAgents(em: EntityManager, setIds: string[]): Promise<Map<string, AttachedAgentDto[]>> {
  const bySet = new Map<string, AttachedAgentDto[]>();
  if (setIds.length === 0) return bySet;
  const rows: { set_id: string; id: string; name: string }[] = await em
    .createQueryBuilder(AgentExtractionSet, 'l')
    .innerJoin(Agent, 'a', 'a.id = l.agent_id AND a.deleted_at IS NULL')
    .select(['l.set_id AS set_id', 'a.id AS id', 'a.agent_name AS name'])
    .where('l.set_id IN (:...setIds)', { setIds })
    .orderBy('l.attached_at')
    .addOrderBy('a.id')
    .getRawMany();
  for (const r of rows) bySet.set(r.set_id, [...(bySet.get(r.set_id) ?? []), { id: r.id, name: r.name }]);
  return bySet;
}

export async function buildSetRecords(em: EntityManager, sets: ExtractionSet[]): Promise<ExtractionSetDto[]> {
  const agents = await attachedAgents(
    em,
    sets.map((s) => s.id),
  );
  return sets.map((s) => toExtractionSetDto(s, agents.get(s.id) ?? []));
}

/** The record of one set as stored now (timestamps included), with the keys a merge dropped. */
export async function buildSetRecord(
  em: EntityManager,
  id: string,
  dropped: ExtractionKeyDto[] = [],
): Promise<ExtractionSetDto> {
  const set = await em.findOneByOrFail(ExtractionSet, { id });
  const agents = await attachedAgents(em, [id]);
  return toExtractionSetDto(set, agents.get(id) ?? [], dropped);
}
