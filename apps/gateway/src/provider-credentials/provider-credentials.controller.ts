import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateProviderCredentialDto,
  ProviderCredentialDeletedDto,
  ProviderCredentialLimits,
  ProviderCredentialListDto,
  ProviderCredentialRecordDto,
  RotateProviderCredentialDto,
  UpdateProviderCredentialDto,
} from '@vap/api';
import { ErrorCode, ProviderCredentialId, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const CREDENTIAL_ID = { name: 'id', example: 'pcred_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' };
const RESOURCE = 'Provider credential';

/** A creation or rotation waits for the provider's answer to the key check, at most its deadline, and a little more. */
const KEY_CHECK_RPC_TIMEOUT_MS = ProviderCredentialLimits.keyCheckMaxMs + 5_000;

const CHECK =
  'The key is checked live with the provider first (one cheap authenticated request to the provider’s API as the ' +
  'platform reaches it; you never choose where the key is sent). A key the provider refuses is a 400 ' +
  'VALIDATION_ERROR quoting the provider (details[0].field api_key); a provider that does not answer is a 502 and ' +
  'nothing is saved. The key is stored encrypted and never returned: responses show key_last4 only.';

@ApiTags('Provider credentials')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/provider-credentials`)
export class ProviderCredentialsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Store the account’s key for a speech provider',
    description:
      'Voices and transcribers of that provider then run on this key in calls started afterwards, and its voices ' +
      `appear in the catalog with availability account_key. One key per provider (409 CONFLICT: rotate with PUT). ${CHECK}`,
  })
  @ApiEnvelope(ProviderCredentialRecordDto, 'Stored')
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.CONFLICT)
  create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateProviderCredentialDto,
  ): Promise<ProviderCredentialRecordDto> {
    return this.rpc.request(Subjects.agents.providerCredentialCreate, auth.partner, body, {
      timeoutMs: KEY_CHECK_RPC_TIMEOUT_MS,
    });
  }

  @Get()
  @ApiOperation({ summary: 'List the account’s provider keys (masked)' })
  @ApiEnvelope(ProviderCredentialListDto)
  list(@CurrentPartner() auth: AuthContext): Promise<ProviderCredentialListDto> {
    return this.rpc.request(Subjects.agents.providerCredentialList, auth.partner, {});
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a provider key (masked)' })
  @ApiParam(CREDENTIAL_ID)
  @ApiEnvelope(ProviderCredentialRecordDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, ProviderCredentialId)) id: string,
  ): Promise<ProviderCredentialRecordDto> {
    return this.rpc.request(Subjects.agents.providerCredentialGet, auth.partner, { id });
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Rotate a provider key',
    description:
      `Replaces the stored key with a new one for the same provider; calls already running keep the old one. ${CHECK} ` +
      'A refused key leaves the stored one in place.',
  })
  @ApiParam(CREDENTIAL_ID)
  @ApiEnvelope(ProviderCredentialRecordDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  rotate(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, ProviderCredentialId)) id: string,
    @Body() body: RotateProviderCredentialDto,
  ): Promise<ProviderCredentialRecordDto> {
    return this.rpc.request(
      Subjects.agents.providerCredentialRotate,
      auth.partner,
      { id, changes: body },
      { timeoutMs: KEY_CHECK_RPC_TIMEOUT_MS },
    );
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a provider key (label only; the key changes by PUT)' })
  @ApiParam(CREDENTIAL_ID)
  @ApiEnvelope(ProviderCredentialRecordDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, ProviderCredentialId)) id: string,
    @Body() body: UpdateProviderCredentialDto,
  ): Promise<ProviderCredentialRecordDto> {
    return this.rpc.request(Subjects.agents.providerCredentialUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a provider key',
    description:
      'Calls started afterwards fall back: to the platform’s key for that provider when the account’s tier may use ' +
      'it, else to the offline stand-in where the deployment allows it, else to the deployment’s default speech. ' +
      'Voices of that provider leave the catalog when nothing else makes them usable.',
  })
  @ApiParam(CREDENTIAL_ID)
  @ApiEnvelope(ProviderCredentialDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, ProviderCredentialId)) id: string,
  ): Promise<ProviderCredentialDeletedDto> {
    return this.rpc.request(Subjects.agents.providerCredentialDelete, auth.partner, { id });
  }
}
