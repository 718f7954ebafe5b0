import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateInboundRoutePolicyDto,
  InboundRoutePolicyDeletedDto,
  InboundRoutePolicyDto,
  InboundRoutePolicyListDto,
  UpdateInboundRoutePolicyDto,
} from '@vap/api';
import { ErrorCode, InboundRoutePolicyId, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const POLICY_ID = 'irp_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11';

const ROUTING = `
An inbound call resolves the first **enabled** policy in the order PHONE_NUMBER (the called number), AGENT (the
number's agent), PARTNER. That policy's \`webhook_url\` receives \`POST inbound.route\` with headers
\`X-Vap-Event: inbound.route\`, \`X-Vap-Timestamp\` (Unix ms) and, when the policy has a secret,
\`X-Vap-Signature: v1=<hex HMAC-SHA256 of "<X-Vap-Timestamp>.<raw body>" keyed with webhook_secret>\`.
It must answer 2xx within \`timeout_ms\` with JSON \`{ "action": ... }\`: ANSWER_WITH_AI, SELECT_AGENT (needs
\`agent_id\` of one of your agents), TRANSFER (needs \`to_number\` in E.164) or REJECT, limited to
\`allowed_actions\`. A failure, timeout or invalid answer applies \`failure_action\`. With no policy the number's
agent answers (or the call is rejected when it has none). Every decision is recorded (GET /inbound-route-decisions).`;

/** Thin HTTP edge for inbound routing policies. */
@ApiTags('Inbound routing')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/inbound-route-policies`)
export class InboundRoutePoliciesController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an inbound routing policy',
    description: `One policy per phone number, per agent and per account (409 CONFLICT otherwise). The webhook secret is write-only.\n${ROUTING}`,
  })
  @ApiEnvelope(InboundRoutePolicyDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateInboundRoutePolicyDto,
  ): Promise<InboundRoutePolicyDto> {
    return this.rpc.request(Subjects.calls.inboundPolicyCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the account’s inbound routing policies', description: ROUTING })
  @ApiEnvelope(InboundRoutePolicyListDto)
  list(@CurrentPartner() auth: AuthContext): Promise<InboundRoutePolicyListDto> {
    return this.rpc.request(Subjects.calls.inboundPolicyList, auth.partner, {});
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an inbound routing policy' })
  @ApiParam({ name: 'id', example: POLICY_ID })
  @ApiEnvelope(InboundRoutePolicyDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Inbound route policy', InboundRoutePolicyId)) id: string,
  ): Promise<InboundRoutePolicyDto> {
    return this.rpc.request(Subjects.calls.inboundPolicyGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update an inbound routing policy',
    description: 'Scope and target are fixed at creation. `webhook_secret: null` removes the secret.',
  })
  @ApiParam({ name: 'id', example: POLICY_ID })
  @ApiEnvelope(InboundRoutePolicyDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Inbound route policy', InboundRoutePolicyId)) id: string,
    @Body() body: UpdateInboundRoutePolicyDto,
  ): Promise<InboundRoutePolicyDto> {
    return this.rpc.request(Subjects.calls.inboundPolicyUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete an inbound routing policy' })
  @ApiParam({ name: 'id', example: POLICY_ID })
  @ApiEnvelope(InboundRoutePolicyDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Inbound route policy', InboundRoutePolicyId)) id: string,
  ): Promise<InboundRoutePolicyDeletedDto> {
    return this.rpc.request(Subjects.calls.inboundPolicyDelete, auth.partner, { id });
  }
}
