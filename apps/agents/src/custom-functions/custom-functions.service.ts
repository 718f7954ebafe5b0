import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  AgentDto,
  AgentEffectiveToolsDto,
  agentEffectiveToolsOf,
  CreateCustomFunctionDto,
  CustomFunctionDeletedDto,
  CustomFunctionDto,
  CustomFunctionLimits,
  CustomFunctionListDto,
  CustomFunctionAuthDto,
  CustomFunctionSpeechInputDto,
  CustomFunctionWithSecretDto,
  ListCustomFunctionsQueryDto,
  UpdateCustomFunctionDto,
} from '@vap/api';
import {
  AgentForCall,
  AppError,
  CUSTOM_FUNCTION_DEFAULT_DELAY_MS,
  CUSTOM_FUNCTION_DEFAULT_TIMEOUT_MS,
  CustomFunctionId,
  CustomFunctionSpeech,
  ErrorCode,
  type ErrorDetail,
} from '@vap/messages';
import { inTransaction, keysetPage } from '@vap/persistence';
import { findAgent, lockAgent } from '../agents/agent-locks';
import { AgentRecordsService } from '../agents/agent-records.service';
import { AgentsService } from '../agents/agents.service';
import { Agent, agentSnapshotOf } from '../agents/entities/agent.entity';
import { invalidFields } from '../common/invalid-fields';
import { originOf } from '../common/url-origin';
import { LOCK_CONFLICT, withUniqueConflicts } from '../common/write-conflicts';
import { findConnector } from '../connectors/connector-records';
import { AgentDocumentsService } from '../knowledge/agent-documents.service';
import {
  buildFunctionRecord,
  buildFunctionRecords,
  functionsAttachedTo,
  toCustomFunctionSpec,
} from './custom-function-records';
import { CustomFunctionCache } from './custom-function-cache';
import { CustomFunctionSecrets } from './custom-function-secrets';
import { AgentCustomFunction } from './entities/agent-custom-function.entity';
import { CustomFunction } from './entities/custom-function.entity';

/**
 * What a PATCH that moves the function to another origin must send again: its stored header values and its
 * customer-connection auth were given for the old origin, and a key that may edit the function must not be
 * able to send them elsewhere by changing the URL alone. A path change on the same origin keeps them.
 */
function credentialsNotResent(fn: CustomFunction, input: UpdateCustomFunctionDto): ErrorDetail[] {
  if (input.url === undefined || originOf(input.url) === originOf(fn.url)) return [];
  const out: ErrorDetail[] = [];
  const to = originOf(input.url);
  if (fn.headerNames.length && input.headers === undefined)
    out.push({
      field: 'headers',
      message: `headers must be sent again to move the function to ${to}: the stored values were given for ${originOf(fn.url)}`,
    });
  if (fn.auth && input.auth === undefined)
    out.push({
      field: 'auth',
      message: `auth must be sent again to move the function to ${to}: customers' credentials go to the function's origin`,
    });
  return out;
}

const NAME_TAKEN = withUniqueConflicts({
  custom_functions_partner_name_key: () =>
    AppError.conflict('A custom function with this name already exists on this account (names ignore case)'),
});

const DEFAULT_PARAMETERS = { type: 'object', properties: {} };

function speechOf(input: CustomFunctionSpeechInputDto | undefined): CustomFunctionSpeech {
  return {
    on_start: input?.on_start ?? null,
    on_delay: input?.on_delay ?? null,
    delay_ms: input?.delay_ms ?? CUSTOM_FUNCTION_DEFAULT_DELAY_MS,
    on_failure: input?.on_failure ?? null,
  };
}

/** A function's auth as stored, its connector the account's own (else 404 NOT_FOUND, as any id of another account). */
async function checkedAuth(
  em: EntityManager,
  partnerId: string,
  auth: CustomFunctionAuthDto | null | undefined,
): Promise<CustomFunctionAuthDto | null> {
  if (!auth) return null;
  await findConnector(em, partnerId, auth.connector_id, 'share');
  return { type: auth.type, connector_id: auth.connector_id };
}

/** The partner's function, or 404 NOT_FOUND (also for a malformed id or another account's function). */
export async function findFunction(
  em: EntityManager,
  partnerId: string,
  id: string,
  lock?: 'update' | 'share',
): Promise<CustomFunction> {
  if (!CustomFunctionId.is(id)) throw AppError.notFound('Custom function');
  const qb = em
    .getRepository(CustomFunction)
    .createQueryBuilder('f')
    .where('f.id = :id AND f.partner_id = :partnerId', { id, partnerId });
  if (lock) qb.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
  const fn = await qb.getOne();
  if (!fn) throw AppError.notFound('Custom function');
  return fn;
}

/**
 * Custom functions and their attachment to agents. A change that alters what an agent's calls are offered
 * publishes the agent's record (agent.updated), as extraction sets do.
 */
@Injectable()
export class CustomFunctionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: CustomFunctionSecrets,
    private readonly agents: AgentsService,
    private readonly records: AgentRecordsService,
    private readonly cache: CustomFunctionCache,
    private readonly knowledge: AgentDocumentsService,
  ) {}

  create(partnerId: string, input: CreateCustomFunctionDto): Promise<CustomFunctionWithSecretDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        // Serializes the account's creations, so the count below cannot be passed by concurrent ones.
        await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `agents:custom_functions:${partnerId}`,
        ]);
        const count = await em.countBy(CustomFunction, { partnerId });
        if (count >= CustomFunctionLimits.perAccount) {
          throw new AppError(
            ErrorCode.LIMIT_REACHED,
            `An account can have at most ${CustomFunctionLimits.perAccount} custom functions`,
          );
        }
        const id = CustomFunctionId.format(randomUUID());
        const secret = this.secrets.generateSigningSecret();
        const headers = input.headers ?? {};
        await em.insert(CustomFunction, {
          id,
          partnerId,
          name: input.name,
          description: input.description,
          // jsonb of any shape: TypeORM's deep-partial type cannot express an open record.
          parameters: (input.parameters ?? DEFAULT_PARAMETERS) as never,
          url: input.url,
          method: input.method ?? 'POST',
          headerNames: Object.keys(headers),
          headersSealed: this.secrets.sealHeaders(id, headers),
          signingSecretSealed: this.secrets.sealSigningSecret(id, secret),
          timeoutMs: input.timeout_ms ?? CUSTOM_FUNCTION_DEFAULT_TIMEOUT_MS,
          speech: speechOf(input.speech),
          responseVariables: input.response_variables ?? {},
          async: input.async ?? false,
          auth: await checkedAuth(em, partnerId, input.auth),
          version: 1,
        });
        return { ...(await buildFunctionRecord(em, id)), signing_secret: secret };
      },
      NAME_TAKEN,
    );
  }

  async get(partnerId: string, id: string): Promise<CustomFunctionDto> {
    const em = this.dataSource.manager;
    return buildFunctionRecord(em, (await findFunction(em, partnerId, id)).id);
  }

  async list(partnerId: string, query: ListCustomFunctionsQueryDto): Promise<CustomFunctionListDto> {
    const qb = this.dataSource
      .getRepository(CustomFunction)
      .createQueryBuilder('f')
      .where('f.partner_id = :partnerId', { partnerId });
    const page = await keysetPage(qb, query, { idKind: 'prefixed' });
    return {
      custom_functions: await buildFunctionRecords(this.dataSource.manager, page.rows),
      next_cursor: page.nextCursor,
    };
  }

  /** PATCH: omitted fields stay; headers, speech and response_variables replace the stored ones whole. */
  async update(partnerId: string, id: string, input: UpdateCustomFunctionDto): Promise<CustomFunctionDto> {
    const updated = await inTransaction(
      this.dataSource,
      async (em) => {
        const fn = await findFunction(em, partnerId, id, 'update');
        const unconfirmed = credentialsNotResent(fn, input);
        if (unconfirmed.length) throw invalidFields(unconfirmed);
        if (input.name !== undefined) fn.name = input.name;
        if (input.description !== undefined) fn.description = input.description;
        if (input.parameters !== undefined) fn.parameters = input.parameters;
        if (input.url !== undefined) fn.url = input.url;
        if (input.method !== undefined) fn.method = input.method;
        if (input.headers !== undefined) {
          const headers = input.headers ?? {};
          fn.headerNames = Object.keys(headers);
          fn.headersSealed = this.secrets.sealHeaders(fn.id, headers);
        }
        if (input.timeout_ms !== undefined) fn.timeoutMs = input.timeout_ms;
        if (input.speech !== undefined) fn.speech = speechOf(input.speech);
        if (input.response_variables !== undefined) fn.responseVariables = input.response_variables ?? {};
        if (input.async !== undefined) fn.async = input.async;
        if (input.auth !== undefined) fn.auth = await checkedAuth(em, partnerId, input.auth);
        fn.version += 1;
        await em.save(fn);
        return buildFunctionRecord(em, fn.id);
      },
      NAME_TAKEN,
    );
    // After the commit: a forget before it could let a concurrent read cache the old row again.
    this.cache.forgetEverywhere(updated.id);
    return updated;
  }

  /** A new signing secret, returned once; the old one stops signing here at once, elsewhere within a NATS hop. */
  async rotateSecret(partnerId: string, id: string): Promise<CustomFunctionWithSecretDto> {
    const rotated = await inTransaction(
      this.dataSource,
      async (em) => {
        const fn = await findFunction(em, partnerId, id, 'update');
        const secret = this.secrets.generateSigningSecret();
        fn.signingSecretSealed = this.secrets.sealSigningSecret(fn.id, secret);
        fn.version += 1;
        await em.save(fn);
        return { ...(await buildFunctionRecord(em, fn.id)), signing_secret: secret };
      },
      LOCK_CONFLICT,
    );
    this.cache.forgetEverywhere(rotated.id);
    return rotated;
  }

  /** Deletes the function and detaches it from every agent (calls already running keep their copy). */
  async remove(partnerId: string, id: string): Promise<CustomFunctionDeletedDto> {
    const removed = await inTransaction(
      this.dataSource,
      async (em) => {
        const fn = await findFunction(em, partnerId, id, 'update');
        const links = await em.findBy(AgentCustomFunction, { functionId: fn.id });
        await em.delete(CustomFunction, { id: fn.id });
        const agents = links.length
          ? await em
              .getRepository(Agent)
              .createQueryBuilder('a')
              .where('a.id IN (:...ids) AND a.deleted_at IS NULL', { ids: links.map((l) => l.agentId) })
              .getMany()
          : [];
        for (const agent of agents) await this.agents.publishUpdated(em, agent);
        return { id: fn.id, message: 'Custom function deleted' };
      },
      LOCK_CONFLICT,
    );
    this.cache.forgetEverywhere(removed.id);
    return removed;
  }

  /** Attaches a function to an agent; attaching it again changes nothing. Answers the agent record. */
  attach(partnerId: string, agentId: string, functionId: string): Promise<AgentDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const agent = await lockAgent(em, partnerId, agentId, 'nowait');
        const fn = await findFunction(em, partnerId, functionId, 'share');
        const attached = (await functionsAttachedTo(em, [agent.id])).get(agent.id) ?? [];
        if (attached.some((f) => f.id === fn.id)) return this.records.one(em, agent);
        if (attached.length >= CustomFunctionLimits.perAgent) {
          throw new AppError(
            ErrorCode.LIMIT_REACHED,
            `An agent can have at most ${CustomFunctionLimits.perAgent} custom functions attached`,
          );
        }
        await em.insert(AgentCustomFunction, { agentId: agent.id, functionId: fn.id });
        return this.agents.publishUpdated(em, agent);
      },
      LOCK_CONFLICT,
    );
  }

  /** Detaches a function from an agent: 404 NOT_FOUND when it is not attached. Answers the agent record. */
  detach(partnerId: string, agentId: string, functionId: string): Promise<AgentDto> {
    return inTransaction(
      this.dataSource,
      async (em) => {
        const agent = await lockAgent(em, partnerId, agentId, 'nowait');
        const result = CustomFunctionId.is(functionId)
          ? await em.delete(AgentCustomFunction, { agentId: agent.id, functionId })
          : { affected: 0 };
        if (!result.affected) throw AppError.notFound('Custom function attached to this agent');
        return this.agents.publishUpdated(em, agent);
      },
      LOCK_CONFLICT,
    );
  }

  /**
   * What a call starting now with the agent (or handed to it) copies: its snapshot, built here from the row with
   * its attached functions and linked documents, and the few record fields the call keeps beside it.
   */
  async forCall(partnerId: string, agentId: string): Promise<AgentForCall> {
    const em = this.dataSource.manager;
    const agent = await findAgent(em, partnerId, agentId);
    const [functions, documents] = await Promise.all([
      functionsAttachedTo(em, [agent.id]),
      this.knowledge.linkedDocuments(em, agent.partnerId, [agent.id]),
    ]);
    const snapshot = agentSnapshotOf(agent, {
      customFunctions: (functions.get(agent.id) ?? []).map(toCustomFunctionSpec),
      hasKnowledge: (documents.get(agent.id) ?? []).length > 0,
    });
    return { id: agent.id, name: agent.agentName, projectId: agent.projectId, snapshot };
  }

  /** The tools a call of the agent starting now offers its model: the snapshot the call would take, read. */
  async effectiveTools(partnerId: string, agentId: string): Promise<AgentEffectiveToolsDto> {
    const { id, snapshot } = await this.forCall(partnerId, agentId);
    return agentEffectiveToolsOf(id, snapshot);
  }
}
