import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CatalogVoiceDto,
  CatalogVoiceListDto,
  CreateCatalogVoiceDto,
  ListCatalogVoicesQueryDto,
  UpdateCatalogVoiceDto,
} from '@vap/api';
import { AppError, ErrorCode, isUuid, Subjects, VoiceConfigurationId } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { Public } from '@vap/runtime';
import { AdminTokenGuard } from '../auth/admin-token.guard';
import { ApiEnvelope, ApiErrors, ApiOperatorRoute } from '../http/openapi.decorators';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';

const VOICE_ID = {
  name: 'id',
  description: 'The voice: `vc_` + its voice_id, or the bare voice_id (UUID)',
  example: 'vc_5b1e3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
};

/** A voice id path parameter in either form; anything else names no voice (404). */
const voiceIdParam = {
  transform(value: unknown): string {
    if (VoiceConfigurationId.is(value) || isUuid(value)) return value as string;
    throw AppError.notFound('Voice');
  },
};

/** The operator API of the voice catalog: what partners may give their agents. */
@ApiTags('Operator')
@ApiOperatorRoute()
@Public()
@RateLimitBucket('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/voices')
export class VoiceCatalogAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a voice to the catalog',
    description:
      'Active at once for accounts of its tier and above. provider is a speech provider the platform speaks with; ' +
      'language a locale (hi-IN, en-US); the same provider voice (provider, model_name, provider_voice_id) is in the ' +
      'catalog once (409 CONFLICT).',
  })
  @ApiEnvelope(CatalogVoiceDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.CONFLICT)
  add(@Body() body: CreateCatalogVoiceDto): Promise<CatalogVoiceDto> {
    return this.rpc.request(Subjects.agents.catalogVoiceAdd, null, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List every catalog voice, retired ones included (filters: status, provider, tier)',
  })
  @ApiEnvelope(CatalogVoiceListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(@Query() query: ListCatalogVoicesQueryDto): Promise<CatalogVoiceListDto> {
    return this.rpc.request(Subjects.agents.catalogVoiceList, null, query);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a catalog voice',
    description:
      'Fields left out keep their values. Agents that have the voice speak as it now says from their next call; ' +
      'its preview is made again.',
  })
  @ApiParam(VOICE_ID)
  @ApiEnvelope(CatalogVoiceDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  update(
    @Param('id', voiceIdParam) id: string,
    @Body() body: UpdateCatalogVoiceDto,
  ): Promise<CatalogVoiceDto> {
    return this.rpc.request(Subjects.agents.catalogVoiceUpdate, null, { id, changes: body });
  }

  @Post(':id/retire')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Retire a catalog voice',
    description:
      'Offered to no account from now on (catalog, agent voice list, new agents, preview); agents that have it keep ' +
      'speaking with it. Retiring a retired voice answers it unchanged.',
  })
  @ApiParam(VOICE_ID)
  @ApiEnvelope(CatalogVoiceDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  retire(@Param('id', voiceIdParam) id: string): Promise<CatalogVoiceDto> {
    return this.rpc.request(Subjects.agents.catalogVoiceRetire, null, { id });
  }
}
