import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateProviderCredentialDto,
  ProviderCredentialDeletedDto,
  ProviderCredentialLimits,
  ProviderCredentialListDto,
  ProviderCredentialRecordDto,
  ProviderCredentialWithSecretRecordDto,
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
  'nothing is saved. The key is stored encrypted and never returned: responses show key_last4 only. A custom ' +
  'model server is checked with a signed GET <base_url>/models (2xx, 404 and 405 pass; 401 and 403 refuse).';

@ApiTags('Provider credentials')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/provider-credentials`)
export class ProviderCredentialsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Store the account’s key for a speech or model provider, or its own model server',
    description:
      'Voices and transcribers of a speech provider, and agents’ models of a model provider, then run on this key ' +
      'in calls started afterwards; its voices (GET /voice-configurations) and models (GET /models) appear with ' +
      'availability account_key. An openai key serves OpenAI speech and OpenAI models alike. azure_openai needs ' +
      '`region`: the name of the key’s Azure OpenAI resource. `custom` is your own OpenAI-compatible model server: ' +
      '`base_url` (HTTPS, a public host), an optional `api_key` sent as a bearer token, and a `signing_secret` ' +
      'answered once, with which every request to it is signed. One credential per provider (409 CONFLICT: rotate ' +
      `with PUT). ${CHECK}`,
  })
  @ApiEnvelope(ProviderCredentialWithSecretRecordDto, 'Stored')
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.CONFLICT)
  create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateProviderCredentialDto,
  ): Promise<ProviderCredentialWithSecretRecordDto> {
    return this.rpc.request(Subjects.agents.providerCredentialCreate, auth.partner, body, {
      timeoutMs: KEY_CHECK_RPC_TIMEOUT_MS,
    });
  }

  @Get()
  @ApiOperation({ summary: 'List the account’s provider credentials (keys masked)' })
  @ApiEnvelope(ProviderCredentialListDto)
  list(@CurrentPartner() auth: AuthContext): Promise<ProviderCredentialListDto> {
    return this.rpc.request(Subjects.agents.providerCredentialList, auth.partner, {});
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a provider credential (key masked)' })
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
      'A refused key leaves the stored one in place. custom: a new base_url and/or api_key (omitted: kept; api_key ' +
      'null: none); a base_url on another origin answers a new signing_secret (once) and needs api_key sent again, ' +
      'so neither the key nor the secret is ever sent where it was not given for.',
  })
  @ApiParam(CREDENTIAL_ID)
  @ApiEnvelope(ProviderCredentialWithSecretRecordDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  rotate(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, ProviderCredentialId)) id: string,
    @Body() body: RotateProviderCredentialDto,
  ): Promise<ProviderCredentialWithSecretRecordDto> {
    return this.rpc.request(
      Subjects.agents.providerCredentialRotate,
      auth.partner,
      { id, changes: body },
      { timeoutMs: KEY_CHECK_RPC_TIMEOUT_MS },
    );
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a provider credential (label only; the key changes by PUT)' })
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
    summary: 'Delete a provider credential',
    description:
      'Calls started afterwards fall back: to the platform’s key for that provider when the account’s tier may use ' +
      'it, else (speech) to the offline stand-in where the deployment allows it, else to the deployment’s default ' +
      'speech; an agent’s model with no usable key any more is skipped for its next fallback, else the ' +
      'deployment’s default model answers. Voices and models of that provider leave the catalog when nothing ' +
      'else makes them usable.',
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
