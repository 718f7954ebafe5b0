import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  AgentDto,
  CreateExtractionSetDto,
  ExtractionKeyDto,
  ExtractionSetDeletedDto,
  ExtractionSetDto,
  ExtractionSetListDto,
  ListExtractionSetsQueryDto,
  UpdateExtractionSetDto,
} from '@vap/api';
import { AppError, ExtractionSetId } from '@vap/messages';
import { keysetPage, inTransaction } from '@vap/persistence';
import { LOCK_CONFLICT, withUniqueConflicts } from '../common/write-conflicts';
import { lockAgent, lockAgents } from '../agents/agent-locks';
import { AgentRecordsService } from '../agents/agent-records.service';
import { AgentsService } from '../agents/agents.service';
import { Agent } from '../agents/entities/agent.entity';
import { AgentExtractionSet } from './entities/agent-extraction-set.entity';
import { ExtractionSet } from './entities/extraction-set.entity';
import { normalizeKeys } from './extraction-keys';
import { agentIdsOfSet, AgentSchemaPlan, assertNoKeyClash, setsAttachedTo } from './extraction-graph';
import { buildSetRecord, buildSetRecords } from './extraction-set-records';
import { findSet, lockSet } from './extraction-set-locks';

export const SET_NAME_TAKEN = withUniqueConflicts({
  extraction_sets_partner_name_key: () =>
    AppError.conflict('An extraction set with this name already exists on this account'),
});

/**
 * The schemas of the given agents with one set's keys replaced: what must stay free of clashes when the
 * set's keys change.
 */
export async function plansWithSetKeys(
  em: EntityManager,
  agents: Agent[],
  setId: string,
  keys: ExtractionKeyDto[],
): Promise<AgentSchemaPlan[]> {
  const attached = await setsAttachedTo(
    em,
    agents.map((a) => a.id),
  );
  return agents.map((a) => ({
    agentName: a.agentName,
    inline: a.extractionConfig.keys,
    sets: (attached.get(a.id) ?? []).map((s) => (s.id === setId ? { id: s.id, name: s.name, keys } : s)),
  }));
}

/**
 * Extraction sets and their attachment to agents. Every change that can alter an agent's effective
 * schema locks the agents concerned with NOWAIT: two such changes never interleave, the second one
 * answers 409 WRITE_CONFLICT.
 */
@Injectable()
export class ExtractionSetsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly agents: AgentsService,
    private readonly records: AgentRecordsService,
  ) {}

  create(partnerId: string, input: CreateExtractionSetDto): Promise<ExtractionSetDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const id = ExtractionSetId.format(randomUUID());
        await em.insert(ExtractionSet, {
          id,
          partnerId,
          name: input.name,
          description: input.description ?? '',
          keys: normalizeKeys(input.keys),
        });
        return buildSetRecord(em, id);
      },
      SET_NAME_TAKEN,
    );
  }

  async get(partnerId: string, id: string): Promise<ExtractionSetDto> {
    const em = this.dataSource.manager;
    return buildSetRecord(em, (await findSet(em, partnerId, id)).id);
  }

  async list(partnerId: string, query: ListExtractionSetsQueryDto): Promise<ExtractionSetListDto> {
    const qb = this.dataSource
      .getRepository(ExtractionSet)
      .createQueryBuilder('s')
      .where('s.partner_id = :partnerId', { partnerId });
    const page = await keysetPage(qb, query, { idKind: 'prefixed' });
    return {
      extraction_sets: await buildSetRecords(this.dataSource.manager, page.rows),
      next_cursor: page.nextCursor,
    };
  }

  /** PATCH: new keys replace the list and must not clash on any agent the set is attached to. */
  update(partnerId: string, id: string, input: UpdateExtractionSetDto): Promise<ExtractionSetDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const set = await lockSet(em, partnerId, id, 'update', input.keys !== undefined ? 'nowait' : 'wait');
        if (input.name !== undefined) set.name = input.name;
        if (input.description !== undefined) set.description = input.description ?? '';
        if (input.keys !== undefined) {
          const keys = normalizeKeys(input.keys);
          const agents = await lockAgents(em, partnerId, await agentIdsOfSet(em, set.id), 'nowait');
          assertNoKeyClash(await plansWithSetKeys(em, agents, set.id, keys), 'keys');
          set.keys = keys;
        }
        await em.save(set);
        return buildSetRecord(em, set.id);
      },
      SET_NAME_TAKEN,
    );
  }

  /** Deletes the set and detaches it from every agent (they stop extracting its keys). */
  remove(partnerId: string, id: string): Promise<ExtractionSetDeletedDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const set = await lockSet(em, partnerId, id, 'update', 'nowait');
        const agents = await lockAgents(em, partnerId, await agentIdsOfSet(em, set.id), 'nowait');
        await em.delete(ExtractionSet, { id: set.id });
        for (const agent of agents) await this.agents.publishUpdated(em, agent);
        return { id: set.id, message: 'Extraction set deleted' };
      },
      LOCK_CONFLICT,
    );
  }

  /** Attaches a set to an agent; attaching it again changes nothing. Answers the agent record. */
  attach(partnerId: string, agentId: string, setId: string): Promise<AgentDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const agent = await lockAgent(em, partnerId, agentId, 'nowait');
        const set = await lockSet(em, partnerId, setId, 'share', 'nowait');
        const attached = (await setsAttachedTo(em, [agent.id])).get(agent.id) ?? [];
        if (attached.some((s) => s.id === set.id)) return this.records.one(em, agent);
        assertNoKeyClash(
          [{ agentName: agent.agentName, inline: agent.extractionConfig.keys, sets: [...attached, set] }],
          'set_id',
        );
        await em.insert(AgentExtractionSet, { agentId: agent.id, setId: set.id });
        return this.agents.publishUpdated(em, agent);
      },
      LOCK_CONFLICT,
    );
  }

  /** Detaches a set from an agent: 404 NOT_FOUND when it is not attached. Answers the agent record. */
  detach(partnerId: string, agentId: string, setId: string): Promise<AgentDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const agent = await lockAgent(em, partnerId, agentId, 'nowait');
        const result = await em.delete(AgentExtractionSet, { agentId: agent.id, setId });
        if (!result.affected) throw AppError.notFound('Extraction set attached to this agent');
        return this.agents.publishUpdated(em, agent);
      },
      LOCK_CONFLICT,
    );
  }
}
