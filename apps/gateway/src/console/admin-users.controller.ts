import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import {
  ConsoleInvitationDto,
  ConsolePasswordResetDto,
  ConsoleUserDto,
  ConsoleUserListDto,
  InviteConsoleUserDto,
} from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { Public } from '@vap/runtime';
import { PartnersService } from '../accounts/partners.service';
import { AdminTokenGuard } from '../auth/admin-token.guard';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiOperatorRoute } from '../http/openapi.decorators';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';
import { ConsoleOrigin } from './console-origin';
import { ConsoleUsersService, toConsoleUserDto, toInvitationDto } from './console-users.service';

/** The operator's side of console users: invitations and password-reset links, no email server needed. */
@Public()
@ApiTags('Operator')
@ApiOperatorRoute()
@RateLimitBucket('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/partners/:id/users')
export class AdminUsersController {
  constructor(
    private readonly users: ConsoleUsersService,
    private readonly partners: PartnersService,
    private readonly origin: ConsoleOrigin,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "Invite a user to the partner's console: answers a one-time link (7 days) to pass on",
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(ConsoleInvitationDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.LIMIT_REACHED)
  async invite(
    @Param('id', idParam('Partner')) id: string,
    @Body() body: InviteConsoleUserDto,
  ): Promise<ConsoleInvitationDto> {
    return toInvitationDto(this.origin, await this.users.invite(id, body));
  }

  @Get()
  @ApiOperation({ summary: "The partner's console users" })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiEnvelope(ConsoleUserListDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async list(@Param('id', idParam('Partner')) id: string): Promise<ConsoleUserListDto> {
    await this.partners.get(id);
    return { users: (await this.users.list(id)).map(toConsoleUserDto) };
  }

  @Post(':userId/password-reset')
  @HttpCode(200)
  @ApiOperation({ summary: 'A one-time password-reset link (24 hours) for the user to pass on' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiParam({ name: 'userId', format: 'uuid' })
  @ApiEnvelope(ConsolePasswordResetDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async resetLink(
    @Param('id', idParam('Partner')) id: string,
    @Param('userId') userId: string,
  ): Promise<ConsolePasswordResetDto> {
    if (!isUUID(userId)) throw AppError.notFound('User');
    const { token, expiresAt } = await this.users.resetLink(id, userId);
    return {
      reset_url: this.origin.link(`/console/password-resets/${token}`),
      expires_at: expiresAt.toISOString(),
    };
  }

  @Delete(':userId')
  @ApiOperation({ summary: 'Remove a console user: their sessions end at once (an account keeps an owner)' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiParam({ name: 'userId', format: 'uuid' })
  @ApiEnvelope(ConsoleUserDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  async remove(
    @Param('id', idParam('Partner')) id: string,
    @Param('userId') userId: string,
  ): Promise<ConsoleUserDto> {
    if (!isUUID(userId)) throw AppError.notFound('User');
    return toConsoleUserDto(await this.users.remove(id, 'owner', userId));
  }
}
