import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListModelsQueryDto, ModelCatalogDto } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

/** The model catalog: what an agent's `model` may name, and how this account can use each. */
@ApiTags('Models')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/models`)
export class ModelsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'Models an agent can think with, and how this account can use each',
    description:
      'The offline engine first (no key, always available), then every model provider’s catalog: OpenAI, ' +
      'Anthropic, Google Gemini, Azure OpenAI, the OpenAI-compatible hosts and custom (your own model server). ' +
      'Each model with its capabilities (tools, streaming, speech_to_speech, languages), its context window and ' +
      'the bounds of its parameters (what an agent’s model.temperature and model.max_tokens must be within), and ' +
      '`availability`: `offline`, `account_key` (this account’s own key for the provider, POST ' +
      '/provider-credentials), `platform` (the platform’s key for the account’s tier), or null with ' +
      '`unavailable_reason` naming the key it needs. Providers marked `any_model` take any model id of the right ' +
      'shape (Azure OpenAI deployments, OpenRouter, a custom server); their cards describe what such a model does. ' +
      '`provider` keeps one provider’s models; `available=true` only those the account can use now.',
  })
  @ApiEnvelope(ModelCatalogDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(@CurrentPartner() auth: AuthContext, @Query() query: ListModelsQueryDto): Promise<ModelCatalogDto> {
    return this.rpc.request(Subjects.agents.modelList, auth.partner, query);
  }
}
