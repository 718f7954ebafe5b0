import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AgentWebhooksDto,
  AgentWebhooksUpdatedDto,
  CreateAgentWebhookEndpointDto,
  UpdateAgentWebhooksDto,
  WebhookEndpointWithSecretDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const AGENT_ID = { name: 'agent_id', format: 'uuid', description: 'The agent id' };

/** Thin HTTP edge of one agent's webhooks: its own endpoints and its fan-out flag. */
@ApiTags('Webhooks')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/agent/:agent_id/webhooks`)
export class AgentWebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an endpoint scoped to this agent',
    description:
      'Like POST /config/webhooks with agent_id = the agent in the path; an agent_id in the body is ignored. ' +
      'The endpoint then receives only this agent’s events. 404 for a deleted agent.',
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope(WebhookEndpointWithSecretDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.LABEL_TAKEN, ErrorCode.LIMIT_REACHED)
  create(
    @CurrentPartner() auth: AuthContext,
    @Param('agent_id', idParam('Agent')) agentId: string,
    @Body() body: CreateAgentWebhookEndpointDto,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.rpc.request(Subjects.webhooks.agentWebhooksCreate, auth.partner, {
      agentId,
      endpoint: body,
    });
  }

  @Get()
  @ApiOperation({
    summary: 'The agent’s own endpoints, its fan-out flag and the event catalog',
    description:
      'endpoints holds only this agent’s endpoints (account-wide ones are under /config/webhooks). 404 for a deleted agent.',
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope(AgentWebhooksDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('agent_id', idParam('Agent')) agentId: string,
  ): Promise<AgentWebhooksDto> {
    return this.rpc.request(Subjects.webhooks.agentWebhooksGet, auth.partner, { agentId });
  }

  @Patch()
  @ApiOperation({
    summary: 'Set the agent’s webhooks_include_account_endpoints',
    description:
      'Body: include_account_endpoints (or webhooks_include_account_endpoints), boolean. false stops account-wide ' +
      'endpoints from receiving this agent’s events, and needs at least one enabled endpoint of the agent’s own ' +
      '(else 409 NO_AGENT_ENDPOINT); the flag flips back to true by itself when the last one is deleted or ' +
      'disabled. The response echoes the stored value. 404 for a deleted agent.',
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope(AgentWebhooksUpdatedDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.NO_AGENT_ENDPOINT)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('agent_id', idParam('Agent')) agentId: string,
    @Body() body: UpdateAgentWebhooksDto,
  ): Promise<AgentWebhooksUpdatedDto> {
    return this.rpc.request(Subjects.webhooks.agentWebhooksUpdate, auth.partner, {
      agentId,
      changes: body,
    });
  }
}
