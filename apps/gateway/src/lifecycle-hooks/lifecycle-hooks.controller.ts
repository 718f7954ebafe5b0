import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateLifecycleHookDto,
  LIFECYCLE_HOOK_ID_EXAMPLE,
  LIFECYCLE_HOOK_LIMITS,
  LIFECYCLE_HOOK_TIMEOUT_MS,
  LifecycleHookDeletedDto,
  LifecycleHookDto,
  LifecycleHookListDto,
  LifecycleHookWithSecretDto,
  UpdateLifecycleHookDto,
} from '@vap/api';
import { ErrorCode, LifecycleHookId, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const PRE = LIFECYCLE_HOOK_TIMEOUT_MS.pre_call;
const POST = LIFECYCLE_HOOK_TIMEOUT_MS.post_call;

const HOOKS = `
A call runs its agent's hook for an event, else the account default (agent_id null); an agent's disabled hook
turns the event off for that agent; deleting an agent deletes its hooks.

Requests: \`POST\` JSON with \`X-Vap-Event\` (pre_call | post_call), \`X-Vap-Hook-Id\`, \`X-Vap-Timestamp\`
(Unix ms) and \`X-Vap-Signature: v1=<hex HMAC-SHA256 of "<X-Vap-Timestamp>.<raw body>" keyed with the hook's
secret>\`; HTTPS only, no redirects, answers up to ${LIFECYCLE_HOOK_LIMITS.answerMaxBytes / 1024} KB.

**pre_call** (timeout ${PRE.min}-${PRE.max} ms, default ${PRE.default}): before an outbound call is dialled or an
inbound call is answered, body \`{ event, hook_id, call: { call_id, session_id, direction, from_number, to_number,
agent_id, campaign_id, client_reference_id, variables } }\`. A 2xx answer \`{ "action": "continue" | "block",
"variables": {...}, "reason": "..." }\` (all optional; an empty body is continue): continue merges \`variables\`
into the call's, the hook's value winning for a name both have; block ends the call \`canceled\` with
disposition \`blocked\`, end_call_reason \`pre_call_hook_blocked\` and the reason in error_message, billed
nothing. A timeout, non-2xx, refused address or invalid answer applies \`failure_action\` (continue: the call
goes on unchanged; block: it ends blocked).

**post_call** (timeout ${POST.min}-${POST.max} ms, default ${POST.default}): after session.completed, body
\`{ event, hook_id, session }\` (the session.completed data). Retried after 2, 4, 8 and 16 s, at most
${LIFECYCLE_HOOK_LIMITS.postCallMaxAttempts} requests; the result is \`session.post_call_hook\` on GET /calls/{id}.

Every request is recorded in the integration log.`;

/** Thin HTTP edge of lifecycle hooks: validates, then sends the command to the calls service. */
@ApiTags('Lifecycle hooks')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/lifecycle-hooks`)
export class LifecycleHooksController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a lifecycle hook (its signing secret is returned once)',
    description: `One hook per event for the account (agent_id null) and one per event for each agent (409 CONFLICT otherwise); an agent that is not the account's is 404. The response carries the signing secret (hksec_...), the only time it is shown.\n${HOOKS}`,
  })
  @ApiEnvelope(LifecycleHookWithSecretDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateLifecycleHookDto,
  ): Promise<LifecycleHookWithSecretDto> {
    return this.rpc.request(Subjects.calls.lifecycleHookCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the account’s lifecycle hooks', description: HOOKS })
  @ApiEnvelope(LifecycleHookListDto)
  list(@CurrentPartner() auth: AuthContext): Promise<LifecycleHookListDto> {
    return this.rpc.request(Subjects.calls.lifecycleHookList, auth.partner, {});
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a lifecycle hook' })
  @ApiParam({ name: 'id', example: LIFECYCLE_HOOK_ID_EXAMPLE })
  @ApiEnvelope(LifecycleHookDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Lifecycle hook', LifecycleHookId)) id: string,
  ): Promise<LifecycleHookDto> {
    return this.rpc.request(Subjects.calls.lifecycleHookGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a lifecycle hook',
    description: 'event and agent_id are fixed at creation; the secret changes only by rotate-secret.',
  })
  @ApiParam({ name: 'id', example: LIFECYCLE_HOOK_ID_EXAMPLE })
  @ApiEnvelope(LifecycleHookDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Lifecycle hook', LifecycleHookId)) id: string,
    @Body() body: UpdateLifecycleHookDto,
  ): Promise<LifecycleHookDto> {
    return this.rpc.request(Subjects.calls.lifecycleHookUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a lifecycle hook' })
  @ApiParam({ name: 'id', example: LIFECYCLE_HOOK_ID_EXAMPLE })
  @ApiEnvelope(LifecycleHookDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Lifecycle hook', LifecycleHookId)) id: string,
  ): Promise<LifecycleHookDeletedDto> {
    return this.rpc.request(Subjects.calls.lifecycleHookDelete, auth.partner, { id });
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a new signing secret (returned once)',
    description: 'Requests are signed with the new secret at once; the previous one stops signing.',
  })
  @ApiParam({ name: 'id', example: LIFECYCLE_HOOK_ID_EXAMPLE })
  @ApiEnvelope(LifecycleHookWithSecretDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  rotate(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Lifecycle hook', LifecycleHookId)) id: string,
  ): Promise<LifecycleHookWithSecretDto> {
    return this.rpc.request(Subjects.calls.lifecycleHookRotateSecret, auth.partner, { id });
  }
}
