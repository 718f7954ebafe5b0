import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AgentDeletedDto,
  AgentDto,
  AgentListDto,
  CreateAgentDto,
  ListAgentsQueryDto,
  UpdateAgentDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const AGENT_ID = { name: 'id', format: 'uuid', description: 'The agent id' };

/** Thin HTTP edge of agents: validates, then sends the command to the agents service. */
@ApiTags('Agents')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/agent`)
export class AgentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an agent',
    description:
      'Body: the contract’s creation fields only (any other field is a 400). Omitted fields take their defaults, ' +
      'which the returned record shows. voice_id must be a catalog voice of the account’s tier (GET /agent/voices); ' +
      'the agent’s gender is the voice’s. project_id defaults to the account’s default project. ' +
      'agent_name must be unique among the account’s agents (409 CONFLICT).',
  })
  @ApiEnvelope(AgentDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.CONFLICT)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateAgentDto): Promise<AgentDto> {
    return this.rpc.request(Subjects.agents.agentCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List agents (cursor pagination; filter by agent_type, project_id, name substring)',
    description: "project_id naming another account's or a deleted project is 404 NOT_FOUND.",
  })
  @ApiEnvelope(AgentListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  list(@CurrentPartner() auth: AuthContext, @Query() query: ListAgentsQueryDto): Promise<AgentListDto> {
    return this.rpc.request(Subjects.agents.agentList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an agent' })
  @ApiParam(AGENT_ID)
  @ApiEnvelope(AgentDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(@CurrentPartner() auth: AuthContext, @Param('id', idParam('Agent')) id: string): Promise<AgentDto> {
    return this.rpc.request(Subjects.agents.agentGet, auth.partner, { id });
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Update an agent (partial)',
    description:
      'Partial update: fields left out keep their values; a field sent as null takes the meaning null has at creation ' +
      '(default, off or cleared); nested objects (tool_ack_config, extraction_config) replace the stored ones whole, ' +
      'except turn_taking and dtmf, whose fields sent replace the stored ones while the others are kept. ' +
      'The rules between fields are checked on the result (e.g. transfer_enabled true needs a transfer_number, stored or sent; ' +
      'the minimum silence of turn_taking in force may not exceed its maximum in force). ' +
      'extraction_config sets the inline extraction keys; a key name that an attached extraction set already defines is a ' +
      '409 EXTRACTION_KEY_CLASH, and a concurrent change to the agent’s extraction keys is a 409 WRITE_CONFLICT (retry). ' +
      'webhooks_include_account_endpoints is set through the webhooks service, which owns it: false needs an enabled ' +
      'webhook endpoint of the agent’s own (409 NO_AGENT_ENDPOINT); the response echoes the stored value.',
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope(AgentDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    ErrorCode.EXTRACTION_KEY_CLASH,
    ErrorCode.WRITE_CONFLICT,
    ErrorCode.NO_AGENT_ENDPOINT,
  )
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Agent')) id: string,
    @Body() body: UpdateAgentDto,
  ): Promise<AgentDto> {
    return this.rpc.request(Subjects.agents.agentUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete an agent (soft delete)',
    description:
      'Afterwards every route naming the agent answers 404 NOT_FOUND and its name is free again; an agent.deleted ' +
      'event tells the other services.',
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope(AgentDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Agent')) id: string,
  ): Promise<AgentDeletedDto> {
    return this.rpc.request(Subjects.agents.agentDelete, auth.partner, { id });
  }
}
