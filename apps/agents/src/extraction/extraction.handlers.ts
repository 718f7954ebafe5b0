import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AgentDto,
  CreateExtractionSetDto,
  EffectiveExtractionSchema,
  EffectiveSchemaRequest,
  ExtractionSetDeletedDto,
  ExtractionSetDto,
  ExtractionSetListDto,
  FromAgentDto,
  ListExtractionSetsQueryDto,
  RpcRequest,
  Subjects,
  UpdateExtractionSetDto,
} from '@vap/contracts';
import { partnerOf } from '../common/caller';
import { EffectiveSchemaService } from './effective-schema.service';
import { ExtractionSetsService } from './extraction-sets.service';
import { FromAgentService } from './from-agent.service';

type AttachRequest = { agent_id: string; set_id: string };

/** NATS commands of extraction sets and of the effective extraction schema (queue group: agents). */
@Controller()
export class ExtractionHandlers {
  constructor(
    private readonly sets: ExtractionSetsService,
    private readonly fromAgent: FromAgentService,
    private readonly schemas: EffectiveSchemaService,
  ) {}

  @MessagePattern(Subjects.agents.extractionSetCreate)
  create(@Payload() req: RpcRequest<CreateExtractionSetDto>): Promise<ExtractionSetDto> {
    return this.sets.create(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.agents.extractionSetList)
  list(@Payload() req: RpcRequest<ListExtractionSetsQueryDto>): Promise<ExtractionSetListDto> {
    return this.sets.list(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.agents.extractionSetGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<ExtractionSetDto> {
    return this.sets.get(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.agents.extractionSetUpdate)
  update(
    @Payload() req: RpcRequest<{ id: string; changes: UpdateExtractionSetDto }>,
  ): Promise<ExtractionSetDto> {
    return this.sets.update(partnerOf(req), req.data.id, req.data.changes);
  }

  @MessagePattern(Subjects.agents.extractionSetDelete)
  remove(@Payload() req: RpcRequest<{ id: string }>): Promise<ExtractionSetDeletedDto> {
    return this.sets.remove(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.agents.extractionSetAttach)
  attach(@Payload() req: RpcRequest<AttachRequest>): Promise<AgentDto> {
    return this.sets.attach(partnerOf(req), req.data.agent_id, req.data.set_id);
  }

  @MessagePattern(Subjects.agents.extractionSetDetach)
  detach(@Payload() req: RpcRequest<AttachRequest>): Promise<AgentDto> {
    return this.sets.detach(partnerOf(req), req.data.agent_id, req.data.set_id);
  }

  @MessagePattern(Subjects.agents.extractionSetFromAgent)
  promote(@Payload() req: RpcRequest<FromAgentDto>): Promise<ExtractionSetDto> {
    return this.fromAgent.promote(partnerOf(req), req.data);
  }

  /** For the calls service: the keys post-call extraction fills for an agent. */
  @MessagePattern(Subjects.agents.extractionEffectiveSchema)
  effectiveSchema(@Payload() req: RpcRequest<EffectiveSchemaRequest>): Promise<EffectiveExtractionSchema> {
    return this.schemas.forAgent(partnerOf(req), req.data.agent_id);
  }
}
