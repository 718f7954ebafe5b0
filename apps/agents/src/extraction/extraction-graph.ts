import { EntityManager } from 'typeorm';
import { ExtractionKeyDto } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { AgentExtractionSet } from './entities/agent-extraction-set.entity';
import { ExtractionSet } from './entities/extraction-set.entity';
import { keyClashes, KeySource } from './extraction-keys';

/** The sets attached to each of the agents, in attach order. */
export async function setsAttachedTo(
  em: EntityManager,
  agentIds: string[],
): Promise<Map<string, ExtractionSet[]>> {
  const result = new Map<string, ExtractionSet[]>(agentIds.map((id) => [id, []]));
  if (agentIds.length === 0) return result;
  const rows = await em
    .createQueryBuilder(AgentExtractionSet, 'l')
    .innerJoinAndMapOne('l.set', ExtractionSet, 's', 's.id = l.set_id')
    .where('l.agent_id IN (:...agentIds)', { agentIds })
    .orderBy('l.attached_at')
    .addOrderBy('s.id')
    .getMany();
  for (const row of rows as (AgentExtractionSet & { set: ExtractionSet })[])
    result.get(row.agentId)?.push(row.set);
  return result;
}

/** Ids of the live agents a set is attached to. */
export async function agentIdsOfSet(em: EntityManager, setId: string): Promise<string[]> {
  const rows = await em.find(AgentExtractionSet, { where: { setId }, select: { agentId: true } });
  return rows.map((r) => r.agentId);
}

/** One agent's effective schema as it would be: its inline keys and each attached set's keys. */
export interface AgentSchemaPlan {
  agentName: string;
  inline: readonly ExtractionKeyDto[];
  sets: readonly { id: string; name: string; keys: readonly ExtractionKeyDto[] }[];
}

/**
 * Refuses with 409 EXTRACTION_KEY_CLASH when a planned schema defines a key name twice; `field` is the
 * request field the partner should change.
 */
export function assertNoKeyClash(plans: readonly AgentSchemaPlan[], field: string): void {
  for (const plan of plans) {
    const sources: KeySource[] = [
      { label: 'its inline extraction_config', keys: plan.inline },
      ...plan.sets.map((s) => ({ label: `extraction set "${s.name}" (${s.id})`, keys: s.keys })),
    ];
    const clashes = keyClashes(sources);
    if (clashes.length) {
      const details = clashes.map((c) => ({
        field,
        message: `key "${c.name}" would be defined by ${c.sources.join(' and ')}`,
      }));
      throw new AppError(
        ErrorCode.EXTRACTION_KEY_CLASH,
        `Extraction key clash on agent "${plan.agentName}": ${details.map((d) => d.message).join('; ')}`,
        { details },
      );
    }
  }
}
