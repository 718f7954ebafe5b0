import { Controller } from '@nestjs/common';
import {
  CreateExtractionSetDto,
  ExtractionSetAttachRequest,
  FromAgentDto,
  ListExtractionSetsQueryDto,
  UpdateExtractionSetDto,
} from '@vap/api';
import { ByIdRequest, EffectiveSchemaRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { EffectiveSchemaService } from './effective-schema.service';
import { ExtractionSetsService } from './extraction-sets.service';
import { FromAgentService } from './from-agent.service';

/** NATS commands of extraction sets and of the effective extraction schema (queue group: agents). */
@Controller()
export class ExtractionHandlers {
  constructor(
    private readonly sets: ExtractionSetsService,
    private readonly fromAgent: FromAgentService,
    private readonly schemas: EffectiveSchemaService,
  ) {}

  @Command(Subjects.agents.extractionSetCreate)
  create(@Data() data: CreateExtractionSetDto, @PartnerId() partnerId: string) {
    return this.sets.create(partnerId, data);
  }

  @Command(Subjects.agents.extractionSetList)
  list(@Data() query: ListExtractionSetsQueryDto, @PartnerId() partnerId: string) {
    return this.sets.list(partnerId, query);
  }

  @Command(Subjects.agents.extractionSetGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.sets.get(partnerId, id);
  }

  @Command(Subjects.agents.extractionSetUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateExtractionSetDto>, @PartnerId() partnerId: string) {
    return this.sets.update(partnerId, id, changes);
  }

  @Command(Subjects.agents.extractionSetDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.sets.remove(partnerId, id);
  }

  @Command(Subjects.agents.extractionSetAttach)
  attach(@Data() { agentId, setId }: ExtractionSetAttachRequest, @PartnerId() partnerId: string) {
    return this.sets.attach(partnerId, agentId, setId);
  }

  @Command(Subjects.agents.extractionSetDetach)
  detach(@Data() { agentId, setId }: ExtractionSetAttachRequest, @PartnerId() partnerId: string) {
    return this.sets.detach(partnerId, agentId, setId);
  }

  @Command(Subjects.agents.extractionSetFromAgent)
  promote(@Data() data: FromAgentDto, @PartnerId() partnerId: string) {
    return this.fromAgent.promote(partnerId, data);
  }

  /** For the calls service: the keys post-call extraction fills for an agent. */
  @Command(Subjects.agents.extractionEffectiveSchema)
  effectiveSchema(@Data() { agentId }: EffectiveSchemaRequest, @PartnerId() partnerId: string) {
    return this.schemas.forAgent(partnerId, agentId);
  }
}
