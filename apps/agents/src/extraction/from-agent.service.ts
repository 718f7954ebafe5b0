import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ExtractionKeyDto, ExtractionLimits, ExtractionSetDto, FromAgentDto } from '@vap/api';
import { AppError, ErrorCode, ExtractionSetId } from '@vap/messages';
import { inTransaction } from '@vap/persistence';
import { lockAgent, lockAgents } from '../agents/agent-locks';
import { AgentsService } from '../agents/agents.service';
import { Agent } from '../agents/entities/agent.entity';
import { invalidFields } from '../common/invalid-fields';
import { AgentExtractionSet } from './entities/agent-extraction-set.entity';
import { ExtractionSet } from './entities/extraction-set.entity';
import { agentIdsOfSet, assertNoKeyClash, setsAttachedTo } from './extraction-graph';
import { buildSetRecord } from './extraction-set-records';
import { lockSet } from './extraction-set-locks';
import { plansWithSetKeys, SET_NAME_TAKEN } from './extraction-sets.service';

/**
 * POST /extraction-sets/from-agent: moves an agent's inline keys into a new or existing set, attaches
 * the set to the agent and clears the moved keys from the agent, all in one transaction. The agent and
 * the set are locked with NOWAIT, so a concurrent change to the same keys answers 409 WRITE_CONFLICT
 * instead of one of the two changes being lost.
 */
@Injectable()
export class FromAgentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly agents: AgentsService,
  ) {}

  promote(partnerId: string, input: FromAgentDto): Promise<ExtractionSetDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const agent = await lockAgent(em, partnerId, input.agent_id, 'nowait');
        const { setId, dropped } =
          input.set_id !== undefined
            ? await this.mergeInto(em, agent, input.set_id, input.on_conflict === 'keep_set_definition')
            : { setId: await this.createFrom(em, agent, input.name!, input.description ?? ''), dropped: [] };
        await em
          .createQueryBuilder()
          .insert()
          .into(AgentExtractionSet)
          .values({ agentId: agent.id, setId })
          .orIgnore()
          .execute();
        // Every inline key has left: moved into the set, or dropped in favour of the set's definition.
        agent.extractionConfig = { keys: [] };
        await em.save(agent);
        await this.agents.publishUpdated(em, agent);
        return buildSetRecord(em, setId, dropped);
      },
      SET_NAME_TAKEN,
    );
  }

  private async createFrom(
    em: EntityManager,
    agent: Agent,
    name: string,
    description: string,
  ): Promise<string> {
    const id = ExtractionSetId.format(randomUUID());
    // The agent's inline keys never clash with its other sets, so the new set cannot clash either.
    await em.insert(ExtractionSet, {
      id,
      partnerId: agent.partnerId,
      name,
      description,
      keys: agent.extractionConfig.keys,
    });
    return id;
  }

  private async mergeInto(
    em: EntityManager,
    agent: Agent,
    setId: string,
    keepSetDefinition: boolean,
  ): Promise<{ setId: string; dropped: ExtractionKeyDto[] }> {
    const set = await lockSet(em, agent.partnerId, setId, 'update', 'nowait');
    const inSet = new Set(set.keys.map((k) => k.name));
    const inline = agent.extractionConfig.keys;
    const clashing = inline.filter((k) => inSet.has(k.name));
    if (clashing.length && !keepSetDefinition) {
      const names = clashing.map((k) => k.name).join(', ');
      throw new AppError(
        ErrorCode.EXTRACTION_KEY_CLASH,
        `Inline keys already in extraction set "${set.name}": ${names}. Send on_conflict keep_set_definition to keep the set's definitions and drop these inline keys.`,
        {
          details: clashing.map((k) => ({
            field: 'set_id',
            message: `key "${k.name}" is already in the set`,
          })),
        },
      );
    }
    const keys = [...set.keys, ...inline.filter((k) => !inSet.has(k.name))];
    if (keys.length > ExtractionLimits.setKeysMax) {
      throw invalidFields([
        {
          field: 'set_id',
          message: `the set would hold ${keys.length} keys; at most ${ExtractionLimits.setKeysMax} are allowed`,
        },
      ]);
    }
    // The target agent after the move, and every other agent of the set, which gains the moved keys.
    const otherIds = (await agentIdsOfSet(em, set.id)).filter((id) => id !== agent.id);
    const others = await lockAgents(em, agent.partnerId, otherIds, 'nowait');
    const ownSets = ((await setsAttachedTo(em, [agent.id])).get(agent.id) ?? []).filter(
      (s) => s.id !== set.id,
    );
    assertNoKeyClash(
      [
        { agentName: agent.agentName, inline: [], sets: [...ownSets, { id: set.id, name: set.name, keys }] },
        ...(await plansWithSetKeys(em, others, set.id, keys)),
      ],
      'set_id',
    );
    set.keys = keys;
    await em.save(set);
    return { setId: set.id, dropped: clashing };
  }
}
