import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateCustomFunctionDto,
  CustomFunctionDeletedDto,
  CustomFunctionDto,
  CustomFunctionLimits,
  CustomFunctionListDto,
  CustomFunctionTestResultDto,
  CustomFunctionWithSecretDto,
  ListCustomFunctionsQueryDto,
  TestCustomFunctionDto,
  UpdateCustomFunctionDto,
} from '@vap/api';
import {
  CUSTOM_FUNCTION_INVOKE_MARGIN_MS,
  CUSTOM_FUNCTION_MAX_TIMEOUT_MS,
  CustomFunctionId,
  ErrorCode,
  Subjects,
} from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { CustomersService } from '../customers/customers.service';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const FUNCTION_ID = { name: 'id', example: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' };
const RESOURCE = 'Custom function';

/** A test waits for the partner's server as long as the longest function may take, and a little more. */
const TEST_RPC_TIMEOUT_MS = CUSTOM_FUNCTION_MAX_TIMEOUT_MS + CUSTOM_FUNCTION_INVOKE_MARGIN_MS;

const RULES =
  'name matches ^[a-zA-Z_][a-zA-Z0-9_]{0,63}$, is unique on the account ignoring case (409 CONFLICT) and is not a ' +
  'built-in tool’s name; parameters is a JSON Schema with type "object" that compiles; url is HTTPS; header values ' +
  'are stored encrypted and masked on every read; response_variables paths use $, .key, ["key"] and [index]. ' +
  'Request format, signature, retry rule and limits: docs/custom-functions.md.';

@ApiTags('Custom functions')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/custom-functions`)
export class CustomFunctionsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly customers: CustomersService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a custom function (its signing secret is returned once)',
    description: `${RULES} An account has at most ${CustomFunctionLimits.perAccount} functions (429 LIMIT_REACHED).`,
  })
  @ApiEnvelope(CustomFunctionWithSecretDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.LIMIT_REACHED)
  create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateCustomFunctionDto,
  ): Promise<CustomFunctionWithSecretDto> {
    return this.rpc.request(Subjects.agents.customFunctionCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List custom functions (cursor pagination)' })
  @ApiEnvelope(CustomFunctionListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListCustomFunctionsQueryDto,
  ): Promise<CustomFunctionListDto> {
    return this.rpc.request(Subjects.agents.customFunctionList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a custom function' })
  @ApiParam(FUNCTION_ID)
  @ApiEnvelope(CustomFunctionDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, CustomFunctionId)) id: string,
  ): Promise<CustomFunctionDto> {
    return this.rpc.request(Subjects.agents.customFunctionGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a custom function',
    description:
      'Fields left out keep their values; headers, speech and response_variables, when sent, replace the stored ones ' +
      `whole (null clears headers and response_variables). Calls already running keep the tool offered to the model as it was; their requests follow the change within seconds. ${RULES}`,
  })
  @ApiParam(FUNCTION_ID)
  @ApiEnvelope(CustomFunctionDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, CustomFunctionId)) id: string,
    @Body() body: UpdateCustomFunctionDto,
  ): Promise<CustomFunctionDto> {
    return this.rpc.request(Subjects.agents.customFunctionUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a custom function; it is detached from every agent' })
  @ApiParam(FUNCTION_ID)
  @ApiEnvelope(CustomFunctionDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.WRITE_CONFLICT)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, CustomFunctionId)) id: string,
  ): Promise<CustomFunctionDeletedDto> {
    return this.rpc.request(Subjects.agents.customFunctionDelete, auth.partner, { id });
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a new signing secret (returned once)',
    description:
      'Requests are signed with the new secret from now on; the previous one stops within seconds on every replica.',
  })
  @ApiParam(FUNCTION_ID)
  @ApiEnvelope(CustomFunctionWithSecretDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  rotateSecret(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, CustomFunctionId)) id: string,
  ): Promise<CustomFunctionWithSecretDto> {
    return this.rpc.request(Subjects.agents.customFunctionRotateSecret, auth.partner, { id });
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Call the function once with sample arguments, outside any call',
    description:
      'The arguments are checked against parameters first (outcome invalid_arguments: nothing is sent). Otherwise ' +
      'one request is made exactly as during a call (signed, static headers, private-network guard, timeout_ms, ' +
      'retry rule) with null call fields and "test": true, logged as custom_function_test. A function with auth ' +
      'customer_connection uses the connection of the customer named by customer_id (one of the account’s, else ' +
      '404; also sent as call.customer_id); without customer_id it answers not_connected and sends nothing. The ' +
      'answer is 200 whatever the partner’s server did: outcome, status, latency_ms, response_excerpt, error, ' +
      'variables, log_id.',
  })
  @ApiParam(FUNCTION_ID)
  @ApiEnvelope(CustomFunctionTestResultDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  async test(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, CustomFunctionId)) id: string,
    @Body() body: TestCustomFunctionDto,
  ): Promise<CustomFunctionTestResultDto> {
    // The gateway owns customers: another account's customer is 404 here, as on POST /calls/start.
    await this.customers.assertExists(auth.partnerId, body.customer_id);
    return this.rpc.request(
      Subjects.agents.customFunctionTest,
      auth.partner,
      { id, test: body },
      { timeoutMs: TEST_RPC_TIMEOUT_MS },
    );
  }
}
