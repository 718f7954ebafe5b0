import { EntityManager } from 'typeorm';
import { AttachedAgentSummaryDto, AttachedCustomFunctionDto, CustomFunctionDto } from '@vap/api';
import { CustomFunctionSpec, MASKED_HEADER_VALUE } from '@vap/messages';
import { Agent } from '../agents/entities/agent.entity';
import { AgentCustomFunction } from './entities/agent-custom-function.entity';
import { CustomFunction } from './entities/custom-function.entity';

export function toCustomFunctionDto(
  f: CustomFunction,
  attachedAgents: AttachedAgentSummaryDto[],
): CustomFunctionDto {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    parameters: f.parameters,
    url: f.url,
    method: f.method,
    // Values are never read back: the names alone say which headers go out.
    headers: Object.fromEntries(f.headerNames.map((name) => [name, MASKED_HEADER_VALUE])),
    timeout_ms: f.timeoutMs,
    speech: { ...f.speech },
    response_variables: f.responseVariables,
    async: f.async,
    auth: f.auth ? { type: f.auth.type, connector_id: f.auth.connector_id } : null,
    attached_agents: attachedAgents,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
  };
}

/** What a call copies of a function: what the model is offered and how the conversation behaves around it. */
export function toCustomFunctionSpec(f: CustomFunction): CustomFunctionSpec {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    parameters: f.parameters,
    timeout_ms: f.timeoutMs,
    speech: { ...f.speech },
    async: f.async,
  };
}

/** The live agents each function is attached to, in attach order. */
async function attachedAgents(
  em: EntityManager,
  functionIds: string[],
): Promise<Map<string, AttachedAgentSummaryDto[]>> {
  const byFunction = new Map<string, AttachedAgentSummaryDto[]>();
  if (functionIds.length === 0) return byFunction;
  const rows: { function_id: string; id: string; name: string }[] = await em
    .createQueryBuilder(AgentCustomFunction, 'l')
    .innerJoin(Agent, 'a', 'a.id = l.agent_id AND a.deleted_at IS NULL')
    .select(['l.function_id AS function_id', 'a.id AS id', 'a.agent_name AS name'])
    .where('l.function_id IN (:...functionIds)', { functionIds })
    .orderBy('l.attached_at')
    .addOrderBy('a.id')
    .getRawMany();
  for (const r of rows)
    byFunction.set(r.function_id, [...(byFunction.get(r.function_id) ?? []), { id: r.id, name: r.name }]);
  return byFunction;
}

export async function buildFunctionRecords(
  em: EntityManager,
  functions: CustomFunction[],
): Promise<CustomFunctionDto[]> {
  const agents = await attachedAgents(
    em,
    functions.map((f) => f.id),
  );
  return functions.map((f) => toCustomFunctionDto(f, agents.get(f.id) ?? []));
}

export async function buildFunctionRecord(em: EntityManager, id: string): Promise<CustomFunctionDto> {
  const fn = await em.findOneByOrFail(CustomFunction, { id });
  const [dto] = await buildFunctionRecords(em, [fn]);
  return dto;
}

/** The functions attached to each agent, in attach order. */
export async function functionsAttachedTo(
  em: EntityManager,
  agentIds: string[],
): Promise<Map<string, CustomFunction[]>> {
  const byAgent = new Map<string, CustomFunction[]>();
  if (agentIds.length === 0) return byAgent;
  const rows = await em
    .createQueryBuilder(AgentCustomFunction, 'l')
    .innerJoinAndMapOne('l.fn', CustomFunction, 'f', 'f.id = l.function_id')
    .where('l.agent_id IN (:...agentIds)', { agentIds })
    .orderBy('l.attached_at')
    .addOrderBy('f.id')
    .getMany();
  for (const row of rows as (AgentCustomFunction & { fn: CustomFunction })[])
    byAgent.set(row.agentId, [...(byAgent.get(row.agentId) ?? []), row.fn]);
  return byAgent;
}

/** The id and name of the functions attached to each agent, in attach order: what agent records list. */
export async function functionSummariesOf(
  em: EntityManager,
  agentIds: string[],
): Promise<Map<string, AttachedCustomFunctionDto[]>> {
  const byAgent = new Map<string, AttachedCustomFunctionDto[]>();
  if (agentIds.length === 0) return byAgent;
  const rows: { agent_id: string; id: string; name: string }[] = await em
    .createQueryBuilder(AgentCustomFunction, 'l')
    .innerJoin(CustomFunction, 'f', 'f.id = l.function_id')
    .select(['l.agent_id AS agent_id', 'f.id AS id', 'f.name AS name'])
    .where('l.agent_id IN (:...agentIds)', { agentIds })
    .orderBy('l.attached_at')
    .addOrderBy('f.id')
    .getRawMany();
  for (const r of rows)
    byAgent.set(r.agent_id, [...(byAgent.get(r.agent_id) ?? []), { id: r.id, name: r.name }]);
  return byAgent;
}
