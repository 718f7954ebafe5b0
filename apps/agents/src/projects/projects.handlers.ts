import { Controller } from '@nestjs/common';
import { CreateProjectDto, ListProjectsQueryDto, UpdateProjectDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { ProjectsService } from './projects.service';

/** NATS commands of projects (queue group: agents). */
@Controller()
export class ProjectsHandlers {
  constructor(private readonly projects: ProjectsService) {}

  @Command(Subjects.agents.projectCreate)
  create(@Data() data: CreateProjectDto, @PartnerId() partnerId: string) {
    return this.projects.create(partnerId, data);
  }

  @Command(Subjects.agents.projectList)
  list(@Data() query: ListProjectsQueryDto, @PartnerId() partnerId: string) {
    return this.projects.list(partnerId, query);
  }

  @Command(Subjects.agents.projectGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.projects.get(partnerId, id);
  }

  @Command(Subjects.agents.projectUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateProjectDto>, @PartnerId() partnerId: string) {
    return this.projects.update(partnerId, id, changes);
  }

  @Command(Subjects.agents.projectDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.projects.remove(partnerId, id);
  }
}
