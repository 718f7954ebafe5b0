import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Project } from './entities/project.entity';
import { isUuid } from '@vap/messages';

export const DEFAULT_PROJECT_NAME = 'Default project';

@Injectable()
export class ProjectsService {
  /** The partner's default project, created the first time it is needed. */
  async defaultProjectId(em: EntityManager, partnerId: string): Promise<string> {
    // The partial unique index on (partner_id) WHERE is_default makes concurrent first uses agree on one row.
    await em
      .createQueryBuilder()
      .insert()
      .into(Project)
      .values({ id: randomUUID(), partnerId, name: DEFAULT_PROJECT_NAME, isDefault: true })
      .orIgnore()
      .execute();
    const project = await em.findOneByOrFail(Project, { partnerId, isDefault: true });
    return project.id;
  }

  async isOwnProject(em: EntityManager, partnerId: string, projectId: string): Promise<boolean> {
    return isUuid(projectId) && (await em.existsBy(Project, { id: projectId, partnerId }));
  }
}
