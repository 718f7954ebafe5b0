import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  InboundRouteDecisionDto,
  InboundRouteDecisionListDto,
  ListInboundRouteDecisionsQueryDto,
  SandboxInboundCallDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

/** Decision timeouts go up to 10 s; the command waits a little longer than the slowest allowed answer. */
const ROUTING_RPC_TIMEOUT_MS = 15_000;

/** Thin HTTP edge for recorded routing decisions and the sandbox inbound call that produces one. */
@ApiTags('Inbound routing')
@ApiPartnerRoute()
@Controller(API_PREFIX)
export class InboundRouteDecisionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('inbound-route-decisions')
  @ApiOperation({
    summary: 'List recorded inbound routing decisions',
    description:
      'Oldest first, cursor pagination; filters: phone_number_id, policy_id, action, source, from/to (created_at range). ' +
      'Each item: action, source (webhook, failure_action, no_policy), webhook status and latency, failure reason, transfer target, answering agent and created call/session ids.',
  })
  @ApiEnvelope(InboundRouteDecisionListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListInboundRouteDecisionsQueryDto,
  ): Promise<InboundRouteDecisionListDto> {
    return this.rpc.request(Subjects.calls.inboundDecisionList, auth.partner, query);
  }

  @Post('sandbox/inbound-calls')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Simulate an inbound call to test your decision URL',
    description:
      'Routes a sandbox inbound call to one of your numbers exactly like a carrier’s: policy resolution, the signed inbound.route request, ' +
      'answer validation, failure_action. Returns the recorded decision (also listed by GET /inbound-route-decisions).',
  })
  @ApiEnvelope(InboundRouteDecisionDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  simulate(
    @CurrentPartner() auth: AuthContext,
    @Body() body: SandboxInboundCallDto,
  ): Promise<InboundRouteDecisionDto> {
    return this.rpc.request(Subjects.calls.sandboxInboundCall, auth.partner, body, {
      timeoutMs: ROUTING_RPC_TIMEOUT_MS,
    });
  }
}
