import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AgentDto } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const AGENT_ID = { name: 'id', format: 'uuid', description: 'The agent id' };
const SET_ID = { name: 'setId', example: 'exs_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' };

/** Attaching extraction sets to an agent. Both answer the agent record (see extraction_sets). */
@ApiTags('Extraction sets')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/agent/:id/extraction-sets`)
export class AgentExtractionSetsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':setId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Attach an extraction set to an agent',
    description:
      'The set’s keys join the agent’s post-call extraction. Attaching an attached set changes nothing. A key name ' +
      'the agent already has (inline or from another set) is a 409 EXTRACTION_KEY_CLASH; a concurrent change to the ' +
      'agent’s extraction keys is a 409 WRITE_CONFLICT (retry).',
  })
  @ApiParam(AGENT_ID)
  @ApiParam(SET_ID)
  @ApiEnvelope(AgentDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.EXTRACTION_KEY_CLASH, ErrorCode.WRITE_CONFLICT)
  attach(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Agent')) agentId: string,
    @Param('setId') setId: string,
  ): Promise<AgentDto> {
    return this.rpc.request(Subjects.agents.extractionSetAttach, auth.partner, {
      agentId,
      setId,
    });
  }

  @Delete(':setId')
  @ApiOperation({ summary: 'Detach an extraction set from an agent (404 when it is not attached)' })
  @ApiParam(AGENT_ID)
  @ApiParam(SET_ID)
  @ApiEnvelope(AgentDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.WRITE_CONFLICT)
  detach(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Agent')) agentId: string,
    @Param('setId') setId: string,
  ): Promise<AgentDto> {
    return this.rpc.request(Subjects.agents.extractionSetDetach, auth.partner, {
      agentId,
      setId,
    });
  }
}
