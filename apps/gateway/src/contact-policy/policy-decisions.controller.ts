import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListPolicyDecisionsQueryDto, PolicyDecisionListDto } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

/** The log of dials the contact policy stopped. */
@ApiTags('Contact policy')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/contact-policy`)
export class PolicyDecisionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('decisions')
  @ApiOperation({
    summary: 'List the dials the contact policy stopped, newest first',
    description:
      'One decision per stopped dial: a POST /calls/start refused (outcome refused, source single_call), a campaign ' +
      'contact skipped (do_not_call: outcome skipped) or deferred to retry_at (calling_window, frequency_cap: outcome ' +
      'deferred), with campaign_id and contact_id for campaign dials, the rule, and the do-not-call entry that matched. ' +
      'Cursor pagination; filters number, rule, outcome, source, campaign_id, created_after, created_before.',
  })
  @ApiEnvelope(PolicyDecisionListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListPolicyDecisionsQueryDto,
  ): Promise<PolicyDecisionListDto> {
    return this.rpc.request(Subjects.calls.policyDecisionList, auth.partner, query);
  }
}
