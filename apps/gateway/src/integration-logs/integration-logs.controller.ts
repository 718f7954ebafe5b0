import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  INTEGRATION_LOG_ID_EXAMPLE,
  IntegrationLogDto,
  IntegrationLogListDto,
  ListIntegrationLogsQueryDto,
} from '@vap/api';
import { ErrorCode, INTEGRATION_LOG_EXCERPT_CHARS, IntegrationLogId, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

const ID_PARAM = {
  name: 'id',
  example: INTEGRATION_LOG_ID_EXAMPLE,
  description: 'Integration log entry id (`ilog_` and a UUID)',
} as const;

/** Thin HTTP edge of the integration log, owned by the agents service. */
@ApiTags('Integration logs')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/integration-logs`)
export class IntegrationLogsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'List the requests the platform made to your systems',
    description:
      'Custom functions (and their tests), lifecycle hooks, inbound decision requests and knowledge-base page ' +
      'fetches, newest first, cursor pagination; filters: kind, outcome, call_id, browser_session_id, agent_id, ' +
      'function_id, hook_id, created_after/created_before (when the request started). Items leave out headers ' +
      'and bodies: GET /integration-logs/{id} has them. Entries are kept for the retention period, then deleted.',
  })
  @ApiEnvelope(IntegrationLogListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListIntegrationLogsQueryDto,
  ): Promise<IntegrationLogListDto> {
    return this.rpc.request(Subjects.agents.integrationLogList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get one request made to your systems',
    description:
      'Method, URL, request headers (signatures, credentials and your static headers masked), the request and ' +
      `answer bodies (their first ${INTEGRATION_LOG_EXCERPT_CHARS} characters), status, outcome, error, latency ` +
      'and attempts.',
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(IntegrationLogDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Integration log entry', IntegrationLogId)) id: string,
  ): Promise<IntegrationLogDto> {
    return this.rpc.request(Subjects.agents.integrationLogGet, auth.partner, { id });
  }
}
