import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateResellerLinkConnectionDto, TelephonyConnectionDto } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { Public } from '@vap/runtime';
import { PartnersService } from '../accounts/partners.service';
import { AdminTokenGuard } from '../auth/admin-token.guard';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiOperatorRoute } from '../http/openapi.decorators';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';

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
    @Param('partnerId', idParam('Partner')) partnerId: string,
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
    @Param('partnerId', idParam('Partner')) partnerId: string,
    @Param('connectionId', idParam('reseller-link connection')) connectionId: string,
  ): Promise<TelephonyConnectionDto> {
    await this.partners.get(partnerId);
    return this.rpc.request(Subjects.calls.resellerLinkConnectionDeactivate, partnerId, { connectionId });
  }
}
