import { Body, Controller, Delete, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  CreateResellerLinkConnectionDto,
  ErrorCode,
  Subjects,
  TelephonyConnectionDto,
} from '@vap/contracts';
import { RpcClient } from '@vap/messaging';
import { Public } from '@vap/runtime';
import { PartnersService } from '../accounts/partners.service';
import { AdminTokenGuard } from '../auth/admin-token.guard';
import { ApiEnvelope, ApiErrors, ApiOperatorRoute } from '../http/openapi.decorators';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';

const partnerUuid = new ParseUUIDPipe({ exceptionFactory: () => AppError.notFound('Partner') });
const connectionUuid = new ParseUUIDPipe({
  exceptionFactory: () => AppError.notFound('reseller-link connection'),
});

/**
 * Operator API for reseller-link connections: a partner may have several (each with its reseller API base
 * URL and key, stored encrypted); partners read their routing tables through GET /reseller-link/call-routing.
 */
@ApiTags('Operator')
@ApiOperatorRoute()
@Public()
@RateLimitBucket('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/partners/:partnerId/reseller-link-connections')
export class ResellerLinkAdminController {
  constructor(
    private readonly partners: PartnersService,
    private readonly rpc: RpcClient,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a reseller-link connection to a partner (api_key stored encrypted, shown masked)',
  })
  @ApiEnvelope(TelephonyConnectionDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  async create(
    @Param('partnerId', partnerUuid) partnerId: string,
    @Body() body: CreateResellerLinkConnectionDto,
  ): Promise<TelephonyConnectionDto> {
    await this.partners.get(partnerId);
    return this.rpc.request(Subjects.calls.resellerLinkConnectionCreate, partnerId, body);
  }

  @Delete(':connectionId')
  @ApiOperation({ summary: 'Deactivate a reseller-link connection (it stays listed with status disabled)' })
  @ApiEnvelope(TelephonyConnectionDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async deactivate(
    @Param('partnerId', partnerUuid) partnerId: string,
    @Param('connectionId', connectionUuid) connectionId: string,
  ): Promise<TelephonyConnectionDto> {
    await this.partners.get(partnerId);
    return this.rpc.request(Subjects.calls.resellerLinkConnectionDeactivate, partnerId, { connectionId });
  }
}
