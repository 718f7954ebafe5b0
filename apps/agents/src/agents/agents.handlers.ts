import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AgentDeletedDto,
  AgentDto,
  AgentListDto,
  CreateAgentDto,
  ListAgentsQueryDto,
  RpcRequest,
  Subjects,
  UpdateAgentDto,
} from '@vap/contracts';
import { partnerOf, voiceTierOf } from '../common/caller';
import { AgentCaller, AgentsService } from './agents.service';

function callerOf(req: RpcRequest): AgentCaller {
  return { partnerId: partnerOf(req), voiceTier: voiceTierOf(req) };
}

/** NATS commands of the agents feature (queue group: agents). */
@Controller()
export class AgentsHandlers {
  constructor(private readonly agents: AgentsService) {}

  @MessagePattern(Subjects.agents.agentCreate)
  create(@Payload() req: RpcRequest<CreateAgentDto>): Promise<AgentDto> {
    return this.agents.create(callerOf(req), req.data);
  }

  @MessagePattern(Subjects.agents.agentList)
  list(@Payload() req: RpcRequest<ListAgentsQueryDto>): Promise<AgentListDto> {
    return this.agents.list(partnerOf(req), req.data);
  }

  /** Used by the gateway and by other services to check that an agent exists for a partner. */
  @MessagePattern(Subjects.agents.agentGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<AgentDto> {
    return this.agents.get(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.agents.agentUpdate)
  update(@Payload() req: RpcRequest<{ id: string; changes: UpdateAgentDto }>): Promise<AgentDto> {
    return this.agents.update(callerOf(req), req.data.id, req.data.changes);
  }

  @MessagePattern(Subjects.agents.agentDelete)
  remove(@Payload() req: RpcRequest<{ id: string }>): Promise<AgentDeletedDto> {
    return this.agents.remove(partnerOf(req), req.data.id);
  }
}
