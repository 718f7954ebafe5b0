import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AgentDto, AttachedExtractionSetDto } from '@vap/api';
import { functionSummariesOf } from '../custom-functions/custom-function-records';
import { AgentExtractionSet } from '../extraction/entities/agent-extraction-set.entity';
import { ExtractionSet } from '../extraction/entities/extraction-set.entity';
import { AgentDocumentsService } from '../knowledge/agent-documents.service';
import { VoicesService } from '../voices/voices.service';
import { Agent, toAgentDto } from './entities/agent.entity';

/** Builds agent records with what they show from other tables, in one query per table for a whole page. */
@Injectable()
export class AgentRecordsService {
  constructor(
    private readonly voices: VoicesService,
    private readonly knowledge: AgentDocumentsService,
  ) {}

  async build(em: EntityManager, agents: Agent[]): Promise<AgentDto[]> {
    if (agents.length === 0) return [];
    const voices = await this.voices.voicesById(
      em,
      agents.map((a) => a.voiceId),
    );
    const sets = await this.attachedSets(
      em,
      agents.map((a) => a.id),
    );
    const functions = await functionSummariesOf(
      em,
      agents.map((a) => a.id),
    );
    // A page of agents belongs to one partner.
    const documents = await this.knowledge.linkedDocuments(
      em,
      agents[0].partnerId,
      agents.map((a) => a.id),
    );
    return agents.map((a) =>
      toAgentDto(
        a,
        voices.get(a.voiceId)!,
        sets.get(a.id) ?? [],
        documents.get(a.id) ?? [],
        functions.get(a.id) ?? [],
      ),
    );
  }

  async one(em: EntityManager, agent: Agent): Promise<AgentDto> {
    const [dto] = await this.build(em, [agent]);
    return dto;
  }

  /** The sets attached to each agent, in attach order. */
  private async attachedSets(
    em: EntityManager,
    agentIds: string[],
  ): Promise<Map<string, AttachedExtractionSetDto[]>> {
    const rows: { agent_id: string; id: string; name: string }[] = await em
      .createQueryBuilder(AgentExtractionSet, 'l')
      .innerJoin(ExtractionSet, 's', 's.id = l.set_id')
      .select(['l.agent_id AS agent_id', 's.id AS id', 's.name AS name'])
      .where('l.agent_id IN (:...agentIds)', { agentIds })
      .orderBy('l.attached_at')
      .addOrderBy('s.id')
      .getRawMany();
    const byAgent = new Map<string, AttachedExtractionSetDto[]>();
    for (const r of rows)
      byAgent.set(r.agent_id, [...(byAgent.get(r.agent_id) ?? []), { id: r.id, name: r.name }]);
    return byAgent;
  }
}
