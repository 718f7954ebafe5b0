import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import {
  AgentDeletedDto,
  AgentDto,
  AgentListDto,
  CreateAgentDto,
  ListAgentsQueryDto,
  UpdateAgentDto,
} from '@vap/api';
import { AppError, DomainEvents, ErrorDetail, Subjects } from '@vap/messages';
import { OutboxService, RpcClient } from '@vap/messaging';
import { keysetPage, inTransaction } from '@vap/persistence';
import { invalidFields } from '../common/invalid-fields';
import { LOCK_CONFLICT, withUniqueConflicts } from '../common/write-conflicts';
import { AgentExtractionSet } from '../extraction/entities/agent-extraction-set.entity';
import { normalizeKeys } from '../extraction/extraction-keys';
import { assertNoKeyClash, setsAttachedTo } from '../extraction/extraction-graph';
import { DictionariesService } from '../dictionaries/dictionaries.service';
import { ProjectsService } from '../projects/projects.service';
import { VoicesService } from '../voices/voices.service';
import { ModelAccess } from '../provider-credentials/model-access';
import { modelUnavailableReason } from '../provider-credentials/model-providers';
import { AgentModelEntry, agentModelEntries, modelCatalogProblems } from './agent-model-rules';
import { findAgent, lockAgent } from './agent-locks';
import { AgentRecordsService } from './agent-records.service';
import { agentRuleViolations } from './agent-rules';
import { Agent, applyUpdate, newAgent } from './entities/agent.entity';

/** The caller as far as agents care: whose agent, and which voices its tier allows. */
export interface AgentCaller {
  partnerId: string;
  voiceTier: string;
}

const NAME_TAKEN = withUniqueConflicts({
  agents_partner_name_key: () =>
    AppError.conflict('An agent with this agent_name already exists on this account'),
});

/** What a create or update changes that needs the catalog or the partner's projects to check. */
interface References {
  voiceId?: string;
  backgroundAudioId?: string | null;
  projectId?: string | null;
  /** Fallback voices not on the agent yet (those it has were checked when given). */
  newFallbackVoiceIds?: string[];
  dictionaryIds?: string[];
  /** Handoff destinations to check (the list was set). */
  handoffAgentIds?: string[];
  /** Models given (model or fallback_models was set): each checked against the catalog. */
  models?: AgentModelEntry[];
  /** Of those, the ones the agent did not have: the account must be able to use each. */
  newModels?: AgentModelEntry[];
}

@Injectable()
export class AgentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly projects: ProjectsService,
    private readonly voices: VoicesService,
    private readonly dictionaries: DictionariesService,
    private readonly records: AgentRecordsService,
    private readonly rpc: RpcClient,
    private readonly models: ModelAccess,
  ) {}

  create(caller: AgentCaller, input: CreateAgentDto): Promise<AgentDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const agent = newAgent(randomUUID(), caller.partnerId, input);
        const problems = await this.resolveReferences(em, caller, agent, {
          voiceId: input.voice_id,
          backgroundAudioId: input.background_audio_id,
          projectId: input.project_id ?? null,
          newFallbackVoiceIds: agent.fallbackVoiceIds,
          dictionaryIds: agent.dictionaryIds,
          handoffAgentIds: agent.handoffs.map((h) => h.agent_id),
          models: agentModelEntries(agent),
          newModels: agentModelEntries(agent),
        });
        this.assertValid(agent, problems);
        await em.insert(Agent, agent);
        const dto = await this.records.one(em, await em.findOneByOrFail(Agent, { id: agent.id }));
        await this.outbox.record(em, DomainEvents.agentCreated, caller.partnerId, dto);
        return dto;
      },
      NAME_TAKEN,
    );
  }

  /**
   * Partial update: present fields replace, absent ones stay. Rules between fields are judged on the
   * result. Changing extraction_config takes the agent with NOWAIT, like every extraction-key change.
   */
  update(caller: AgentCaller, id: string, input: UpdateAgentDto): Promise<AgentDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const agent = await lockAgent(
          em,
          caller.partnerId,
          id,
          input.extraction_config !== undefined ? 'nowait' : 'wait',
        );
        // Only a new reference is checked: an agent keeps a voice its tier no longer includes until changed.
        const changed = <T>(next: T | undefined, current: T) => (next === current ? undefined : next);
        const currentFallbacks = new Set(agent.fallbackVoiceIds);
        const currentModels = agentModelEntries(agent).map((e) => e.model);
        const refs: References = {
          voiceId: changed(input.voice_id, agent.voiceId),
          backgroundAudioId: changed(input.background_audio_id, agent.backgroundAudioId),
          projectId: input.project_id,
        };
        applyUpdate(agent, input);
        if (input.fallback_voice_ids !== undefined)
          refs.newFallbackVoiceIds = agent.fallbackVoiceIds.filter((v) => !currentFallbacks.has(v));
        if (input.dictionary_ids !== undefined) refs.dictionaryIds = agent.dictionaryIds;
        if (input.handoffs !== undefined) refs.handoffAgentIds = agent.handoffs.map((h) => h.agent_id);
        if (input.model !== undefined || input.fallback_models !== undefined) {
          // The lists are replaced whole, so every entry given is judged by the catalog; only a model the agent
          // did not have needs the account to be able to use it (an agent keeps a model whose key went, until changed).
          refs.models = agentModelEntries(agent).filter((e) =>
            e.field === 'model' ? input.model !== undefined : input.fallback_models !== undefined,
          );
          refs.newModels = refs.models.filter(
            (e) => !currentModels.some((m) => m.provider === e.model.provider && m.model === e.model.model),
          );
        }
        const problems = await this.resolveReferences(em, caller, agent, refs);
        this.assertValid(agent, problems);
        if (input.extraction_config !== undefined) {
          const keys = normalizeKeys(input.extraction_config?.keys ?? []);
          const sets = (await setsAttachedTo(em, [agent.id])).get(agent.id) ?? [];
          assertNoKeyClash([{ agentName: agent.agentName, inline: keys, sets }], 'extraction_config.keys');
          agent.extractionConfig = { keys };
        }
        if (input.webhooks_include_account_endpoints !== undefined) {
          // The webhooks service owns the flag and judges its rule (409 NO_AGENT_ENDPOINT); the record echoes it.
          const flag = await this.rpc.request(Subjects.webhooks.agentFlagSet, caller.partnerId, {
            agentId: agent.id,
            includeAccountEndpoints: input.webhooks_include_account_endpoints,
          });
          agent.webhooksIncludeAccountEndpoints = flag.includeAccountEndpoints;
        }
        await em.save(agent);
        return this.publishUpdated(em, agent);
      },
      NAME_TAKEN,
    );
  }

  async get(partnerId: string, id: string): Promise<AgentDto> {
    const em = this.dataSource.manager;
    return this.records.one(em, await findAgent(em, partnerId, id));
  }

  async list(partnerId: string, query: ListAgentsQueryDto): Promise<AgentListDto> {
    // Another account's (or a deleted) project is 404, like on every project route, not an empty page.
    if (query.project_id)
      await this.projects.assertOwnProject(this.dataSource.manager, partnerId, query.project_id);
    const qb = this.dataSource
      .getRepository(Agent)
      .createQueryBuilder('a')
      .where('a.partner_id = :partnerId', { partnerId })
      .andWhere('a.deleted_at IS NULL');
    if (query.agent_type) qb.andWhere('a.agent_type = :agentType', { agentType: query.agent_type });
    if (query.project_id) qb.andWhere('a.project_id = :projectId', { projectId: query.project_id });
    if (query.search) {
      qb.andWhere(`a.agent_name ILIKE :search ESCAPE '\\'`, {
        search: `%${query.search.replace(/[\\%_]/g, '\\$&')}%`,
      });
    }
    const page = await keysetPage(qb, query, { idKind: 'uuid' });
    return {
      agents: await this.records.build(this.dataSource.manager, page.rows),
      next_cursor: page.nextCursor,
    };
  }

  /**
   * Soft delete: the agent disappears from every route, its set attachments go, and agent.deleted tells
   * the other services to stop using it.
   */
  remove(partnerId: string, id: string): Promise<AgentDeletedDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const agent = await lockAgent(em, partnerId, id, 'wait');
        const deletedAt = new Date();
        await em.update(Agent, { id: agent.id }, { deletedAt });
        await em.delete(AgentExtractionSet, { agentId: agent.id });
        await this.outbox.record(em, DomainEvents.agentDeleted, partnerId, {
          agent_id: agent.id,
          agent_name: agent.agentName,
          project_id: agent.projectId,
          deleted_at: deletedAt.toISOString(),
        });
        return { id: agent.id, message: 'Agent deleted' };
      },
      LOCK_CONFLICT,
    );
  }

  /** Records agent.updated for a changed agent and returns its fresh record. */
  async publishUpdated(em: EntityManager, agent: Agent): Promise<AgentDto> {
    const dto = await this.records.one(em, await em.findOneByOrFail(Agent, { id: agent.id }));
    await this.outbox.record(em, DomainEvents.agentUpdated, agent.partnerId, dto);
    return dto;
  }

  /** Checks the references being set and fills in the default project; returns what is wrong. */
  private async resolveReferences(
    em: EntityManager,
    caller: AgentCaller,
    agent: Agent,
    refs: References,
  ): Promise<ErrorDetail[]> {
    const problems: ErrorDetail[] = [];
    if (refs.voiceId !== undefined) {
      const check = await this.voices.checkVoice(em, refs.voiceId, caller.voiceTier, caller.partnerId);
      if (check.problem) problems.push(check.problem);
    }
    for (const voiceId of refs.newFallbackVoiceIds ?? []) {
      const check = await this.voices.checkVoice(em, voiceId, caller.voiceTier, caller.partnerId);
      if (check.problem) {
        // checkVoice words its problem for voice_id; the entry is named by its place in the list.
        const field = `fallback_voice_ids[${agent.fallbackVoiceIds.indexOf(voiceId)}]`;
        problems.push({
          field: 'fallback_voice_ids',
          message: check.problem.message.replace(/^voice_id\b/, field),
        });
      }
    }
    if (refs.dictionaryIds?.length) {
      problems.push(...(await this.dictionaries.checkOwn(em, caller.partnerId, refs.dictionaryIds)));
    }
    if (refs.handoffAgentIds?.length) {
      const own = new Set(
        (
          await em.find(Agent, {
            select: { id: true },
            where: { partnerId: caller.partnerId, id: In(refs.handoffAgentIds), deletedAt: IsNull() },
          })
        ).map((a) => a.id),
      );
      refs.handoffAgentIds.forEach((id, i) => {
        if (!own.has(id))
          problems.push({
            field: `handoffs.${i}.agent_id`,
            message: `handoffs.${i}.agent_id is not an agent of this account`,
          });
      });
    }
    for (const entry of refs.models ?? []) problems.push(...modelCatalogProblems(entry));
    if (refs.newModels?.length) {
      // In the transaction, as the voice check: a key deleted meanwhile is seen.
      const account = await this.models.accountOf(caller.partnerId, caller.voiceTier, em);
      for (const { field, label, model } of refs.newModels) {
        if (!this.models.availability(model.provider, account))
          problems.push({
            field: `${field}.provider`,
            message: modelUnavailableReason(model.provider, label),
          });
      }
    }
    if (refs.backgroundAudioId) {
      const problem = await this.voices.checkBackgroundAudio(em, refs.backgroundAudioId);
      if (problem) problems.push(problem);
    }
    if (refs.projectId === null) {
      agent.projectId = await this.projects.defaultProjectId(em, caller.partnerId);
    } else if (refs.projectId !== undefined) {
      if (await this.projects.isOwnProject(em, caller.partnerId, refs.projectId))
        agent.projectId = refs.projectId;
      else problems.push({ field: 'project_id', message: 'project_id is not a project of this account' });
    }
    return problems;
  }

  private assertValid(agent: Agent, problems: ErrorDetail[]): void {
    const all = [...problems, ...agentRuleViolations(agent)];
    if (all.length) throw invalidFields(all);
  }
}
