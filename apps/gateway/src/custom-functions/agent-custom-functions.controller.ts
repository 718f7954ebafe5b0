import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AgentDto, CustomFunctionLimits } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const AGENT_ID = { name: 'id', format: 'uuid', description: 'The agent id' };
const FUNCTION_ID = { name: 'functionId', example: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' };

/** Attaching custom functions to an agent. Both answer the agent record (see custom_functions). */
@ApiTags('Custom functions')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/agent/:id/custom-functions`)
export class AgentCustomFunctionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':functionId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Attach a custom function to an agent',
    description:
      'Calls started from now on offer the function to the model. Attaching an attached function changes nothing. ' +
      `An agent has at most ${CustomFunctionLimits.perAgent} functions (429 LIMIT_REACHED); a concurrent change to ` +
      'the agent is a 409 WRITE_CONFLICT (retry).',
  })
  @ApiParam(AGENT_ID)
  @ApiParam(FUNCTION_ID)
  @ApiEnvelope(AgentDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.LIMIT_REACHED, ErrorCode.WRITE_CONFLICT)
  attach(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Agent')) agentId: string,
    @Param('functionId') functionId: string,
  ): Promise<AgentDto> {
    return this.rpc.request(Subjects.agents.customFunctionAttach, auth.partner, { agentId, functionId });
  }

  @Delete(':functionId')
  @ApiOperation({ summary: 'Detach a custom function from an agent (404 when it is not attached)' })
  @ApiParam(AGENT_ID)
  @ApiParam(FUNCTION_ID)
  @ApiEnvelope(AgentDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.WRITE_CONFLICT)
  detach(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Agent')) agentId: string,
    @Param('functionId') functionId: string,
  ): Promise<AgentDto> {
    return this.rpc.request(Subjects.agents.customFunctionDetach, auth.partner, { agentId, functionId });
  }
}
