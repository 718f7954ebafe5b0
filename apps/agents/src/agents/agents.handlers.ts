import { Controller } from '@nestjs/common';
import { CreateAgentDto, ListAgentsQueryDto, UpdateAgentDto } from '@vap/api';
import { ByIdRequest, PartnerContext, Subjects, UpdateRequest } from '@vap/messages';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { voiceTierOf } from '../common/caller';
import { AgentsService } from './agents.service';

/** NATS commands of the agents feature (queue group: agents). */
@Controller()
export class AgentsHandlers {
  constructor(private readonly agents: AgentsService) {}

  @Command(Subjects.agents.agentCreate)
  create(
    @Data() data: CreateAgentDto,
    @PartnerId() partnerId: string,
    @Caller({ optional: true }) partner?: PartnerContext,
  ) {
    return this.agents.create({ partnerId, voiceTier: voiceTierOf(partner) }, data);
  }

  @Command(Subjects.agents.agentList)
  list(@Data() query: ListAgentsQueryDto, @PartnerId() partnerId: string) {
    return this.agents.list(partnerId, query);
  }

  /** Used by the gateway and by other services to check that an agent exists for a partner. */
  @Command(Subjects.agents.agentGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.agents.get(partnerId, id);
  }

  @Command(Subjects.agents.agentUpdate)
  update(
    @Data() { id, changes }: UpdateRequest<UpdateAgentDto>,
    @PartnerId() partnerId: string,
    @Caller({ optional: true }) partner?: PartnerContext,
  ) {
    return this.agents.update({ partnerId, voiceTier: voiceTierOf(partner) }, id, changes);
  }

  @Command(Subjects.agents.agentDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.agents.remove(partnerId, id);
  }
}
