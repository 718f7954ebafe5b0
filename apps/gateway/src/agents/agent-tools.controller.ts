import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AgentEffectiveToolsDto,
  AgentToolCatalogDto,
  AgentToolDto,
  agentToolCatalog,
  agentToolOf,
} from '@vap/api';
import { AppError, ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

/**
 * The agent tool catalog (the platform's own tools, answered from the same definitions the voice service offers
 * the model) and, per agent, what its calls offer the model.
 */
@ApiTags('Agent tools')
@ApiPartnerRoute()
@Controller(API_PREFIX)
export class AgentToolsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('agent-tools')
  @ApiOperation({
    summary: 'List the built-in tools an agent’s model may be offered',
    description:
      'Each tool’s name, what the model is told, the JSON Schema of its arguments, when it is offered (the agent ' +
      'settings that turn it on) and the agent fields that shape it. An agent’s `tools` field names those it may ' +
      'use; opt_out is offered on every call. Custom functions are the partner’s own (custom_functions).',
  })
  @ApiEnvelope(AgentToolCatalogDto)
  list(): AgentToolCatalogDto {
    return agentToolCatalog();
  }

  @Get('agent-tools/:name')
  @ApiOperation({
    summary: 'Get one built-in tool of the catalog',
    description: 'handoff_to_{name}, or any handoff_to_<destination>, answers the handoff tool.',
  })
  @ApiParam({ name: 'name', example: 'transfer_call', description: 'The tool’s name' })
  @ApiEnvelope(AgentToolDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(@Param('name') name: string): AgentToolDto {
    const tool = agentToolOf(name);
    if (!tool) throw AppError.notFound('Agent tool');
    return tool;
  }

  @Get('agent/:id/tools')
  @ApiOperation({
    summary: 'The tools an agent’s calls offer its model',
    description:
      'What a call of the agent starting now offers its model, in order, with the exact descriptions and schemas: ' +
      'the built-in tools its settings turn on and its `tools` allows, its handoffs, then its custom functions. ' +
      'withheld lists the built-in tools it does not offer and why.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The agent id' })
  @ApiEnvelope(AgentEffectiveToolsDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  effective(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Agent')) id: string,
  ): Promise<AgentEffectiveToolsDto> {
    return this.rpc.request(Subjects.agents.agentTools, auth.partner, { id });
  }
}
