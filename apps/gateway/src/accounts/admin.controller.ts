import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiKeyListDto,
  ApiKeySummaryDto,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  CreatedPartnerDto,
  CreatePartnerDto,
  PartnerDto,
  PartnerListDto,
  UpdatePartnerDto,
  MAX_ACTIVE_API_KEYS,
} from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { AdminTokenGuard } from '../auth/admin-token.guard';
import { Public } from '@vap/runtime';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiOperatorRoute } from '../http/openapi.decorators';
import { ApiKeysService, toApiKeySummary } from './api-keys.service';
import { PartnersService, toPartnerDto } from './partners.service';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';

/** The operator API: what the dashboard calls to onboard partners, fund them and issue keys. */
@ApiTags('Operator')
@ApiOperatorRoute()
@Public()
@RateLimitBucket('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/partners')
export class AdminController {
  constructor(
    private readonly partners: PartnersService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a partner and its first API key (shown once)' })
  @ApiEnvelope(CreatedPartnerDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  create(@Body() body: CreatePartnerDto): Promise<CreatedPartnerDto> {
    return this.partners.create(body);
  }

  @Get()
  @ApiOperation({ summary: 'List partners' })
  @ApiEnvelope(PartnerListDto)
  async list(): Promise<PartnerListDto> {
    return { partners: await this.partners.list() };
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a partner' })
  @ApiEnvelope(PartnerDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async get(@Param('id', idParam('Partner')) id: string): Promise<PartnerDto> {
    return toPartnerDto(await this.partners.get(id));
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Update status (approved|pending|suspended), balance, concurrency limit, voice tier or reseller mark',
  })
  @ApiEnvelope(PartnerDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  update(@Param('id', idParam('Partner')) id: string, @Body() body: UpdatePartnerDto): Promise<PartnerDto> {
    return this.partners.update(id, body);
  }

  @Post(':id/api-keys')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue another API key (shown once)',
    description:
      'Without `scopes` the key has full access; with them, only what they allow (see the scope catalogue in the API description). ' +
      `An account holds at most ${MAX_ACTIVE_API_KEYS} active keys: one more is 429 LIMIT_REACHED (revoke one first).`,
  })
  @ApiEnvelope(CreatedApiKeyDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.LIMIT_REACHED, ErrorCode.RATE_LIMITED)
  issueKey(
    @Param('id', idParam('Partner')) id: string,
    @Body() body: CreateApiKeyDto,
  ): Promise<CreatedApiKeyDto> {
    return this.partners.issueKey(id, body.name ?? null, body.scopes ?? null);
  }

  @Get(':id/api-keys')
  @ApiOperation({ summary: 'List a partner’s keys (prefixes only)' })
  @ApiEnvelope(ApiKeyListDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async listKeys(@Param('id', idParam('Partner')) id: string): Promise<ApiKeyListDto> {
    await this.partners.get(id);
    return { api_keys: (await this.apiKeys.list(id)).map(toApiKeySummary) };
  }

  @Delete(':id/api-keys/:keyId')
  @ApiOperation({ summary: 'Revoke a key; it stops working at once' })
  @ApiEnvelope(ApiKeySummaryDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async revokeKey(
    @Param('id', idParam('Partner')) id: string,
    @Param('keyId', idParam('API key')) keyId: string,
  ): Promise<ApiKeySummaryDto> {
    const key = await this.apiKeys.revoke(id, keyId);
    if (!key) throw AppError.notFound('API key');
    return toApiKeySummary(key);
  }
}
