import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import {
  CreateProjectDto,
  ListProjectsQueryDto,
  ProjectDeletedDto,
  ProjectDto,
  ProjectLimits,
  ProjectListDto,
  UpdateProjectDto,
} from '@vap/api';
import { AppError, ErrorCode, isUuid } from '@vap/messages';
import { keysetPage, tableOf } from '@vap/persistence';
import { Project } from './entities/project.entity';

export const DEFAULT_PROJECT_NAME = 'Default project';

/** Live agents per project, for the records' agent_count. */
async function agentCounts(em: EntityManager, projectIds: string[]): Promise<Map<string, number>> {
  if (!projectIds.length) return new Map();
  const rows: { project_id: string; n: string }[] = await em.query(
    `SELECT project_id, count(*) AS n FROM ${tableOf(em, 'agents')}
      WHERE project_id = ANY($1::uuid[]) AND deleted_at IS NULL GROUP BY project_id`,
    [projectIds],
  );
  return new Map(rows.map((r) => [r.project_id, Number(r.n)]));
}

function toDto(project: Project, agentCount: number): ProjectDto {
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    is_default: project.isDefault,
    agent_count: agentCount,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}

/**
 * Projects: a partner's groupings of agents (and, through their agents, of campaigns). The default project
 * always exists (created on first use), can be renamed and never deleted; a project still holding agents
 * cannot be deleted either.
 */
@Injectable()
export class ProjectsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The partner's default project, created the first time it is needed. */
  async defaultProjectId(em: EntityManager, partnerId: string): Promise<string> {
    // The partial unique index on (partner_id) WHERE is_default makes concurrent first uses agree on one row.
    await em
      .createQueryBuilder()
      .insert()
      .into(Project)
      // clock_timestamp(), not the transaction's now(): a project created in the same transaction comes after it.
      .values({
        id: randomUUID(),
        partnerId,
        name: DEFAULT_PROJECT_NAME,
        isDefault: true,
        createdAt: () => 'clock_timestamp()',
      })
      .orIgnore()
      .execute();
    const project = await em.findOneByOrFail(Project, { partnerId, isDefault: true });
    return project.id;
  }

  /**
   * Whether the id is a live project of the partner. The row is held (FOR SHARE) until the caller's
   * transaction ends, so a concurrent delete waits and then sees the agent put into it.
   */
  async isOwnProject(em: EntityManager, partnerId: string, projectId: string): Promise<boolean> {
    if (!isUuid(projectId)) return false;
    const project = await em
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.id = :projectId AND p.partner_id = :partnerId AND p.deleted_at IS NULL', {
        projectId,
        partnerId,
      })
      .setLock('pessimistic_read')
      .getOne();
    return project !== null;
  }

  /** 404 NOT_FOUND unless the id is a live project of the partner (used for project_id filters too). */
  async assertOwnProject(em: EntityManager, partnerId: string, projectId: string): Promise<void> {
    if (
      !isUuid(projectId) ||
      !(await em.existsBy(Project, { id: projectId, partnerId, deletedAt: IsNull() }))
    )
      throw AppError.notFound('Project');
  }

  create(partnerId: string, input: CreateProjectDto): Promise<ProjectDto> {
    return this.dataSource.transaction(async (em) => {
      // Serializes the account's creations, so the count below cannot be passed by concurrent ones.
      await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`agents:projects:${partnerId}`]);
      // The default project counts towards the limit, so it is made first.
      await this.defaultProjectId(em, partnerId);
      const count = await em.countBy(Project, { partnerId, deletedAt: IsNull() });
      if (count >= ProjectLimits.perAccount) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `An account can have at most ${ProjectLimits.perAccount} projects, the default one included`,
        );
      }
      const id = randomUUID();
      await em.insert(Project, {
        id,
        partnerId,
        name: input.name,
        description: input.description ?? null,
        isDefault: false,
        // After the default project made in this transaction, which lists first (oldest first).
        createdAt: () => 'clock_timestamp()',
      });
      return toDto(await em.findOneByOrFail(Project, { id }), 0);
    });
  }

  async get(partnerId: string, id: string): Promise<ProjectDto> {
    const em = this.dataSource.manager;
    const project = await this.find(em, partnerId, id);
    return toDto(project, (await agentCounts(em, [project.id])).get(project.id) ?? 0);
  }

  /** Oldest first; the default project is made before the first page, so a list always shows it. */
  async list(partnerId: string, query: ListProjectsQueryDto): Promise<ProjectListDto> {
    const em = this.dataSource.manager;
    if (!query.cursor) await this.defaultProjectId(em, partnerId);
    const qb = em
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.partner_id = :partnerId', { partnerId })
      .andWhere('p.deleted_at IS NULL');
    const page = await keysetPage(qb, query, { idKind: 'uuid' });
    const counts = await agentCounts(
      em,
      page.rows.map((p) => p.id),
    );
    return {
      projects: page.rows.map((p) => toDto(p, counts.get(p.id) ?? 0)),
      next_cursor: page.nextCursor,
    };
  }

  /** PATCH: name and description; the default project can be renamed. */
  update(partnerId: string, id: string, input: UpdateProjectDto): Promise<ProjectDto> {
    return this.dataSource.transaction(async (em) => {
      const project = await this.find(em, partnerId, id, true);
      if (input.name !== undefined) project.name = input.name;
      if (input.description !== undefined) project.description = input.description;
      await em.save(project);
      const fresh = await em.findOneByOrFail(Project, { id: project.id });
      return toDto(fresh, (await agentCounts(em, [project.id])).get(project.id) ?? 0);
    });
  }

  /**
   * Soft delete. Refused (409 INVALID_STATE) for the default project and for a project that still holds
   * live agents: the partner moves or deletes them first, so nothing (an agent, its campaigns) is left in
   * no project. The row lock makes an agent being moved in at the same time either land first (and refuse
   * the delete) or find the project gone.
   */
  remove(partnerId: string, id: string): Promise<ProjectDeletedDto> {
    return this.dataSource.transaction(async (em) => {
      const project = await this.find(em, partnerId, id, true);
      if (project.isDefault) {
        throw new AppError(ErrorCode.INVALID_STATE, 'The default project cannot be deleted');
      }
      const agents = (await agentCounts(em, [project.id])).get(project.id) ?? 0;
      if (agents > 0) {
        throw new AppError(
          ErrorCode.INVALID_STATE,
          `The project still holds ${agents} agent(s); move them to another project or delete them first`,
        );
      }
      await em.update(Project, { id: project.id }, { deletedAt: new Date() });
      return { id: project.id, message: 'Project deleted' };
    });
  }

  private async find(em: EntityManager, partnerId: string, id: string, lock = false): Promise<Project> {
    if (!isUuid(id)) throw AppError.notFound('Project');
    const qb = em
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.id = :id AND p.partner_id = :partnerId AND p.deleted_at IS NULL', { id, partnerId });
    if (lock) qb.setLock('pessimistic_write');
    const project = await qb.getOne();
    if (!project) throw AppError.notFound('Project');
    return project;
  }
}
