import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ImportPhoneNumberDto,
  ListPhoneNumbersQueryDto,
  PHONE_NUMBER_ID_EXAMPLE,
  PhoneNumberDeletedDto,
  PhoneNumberDto,
  PhoneNumberListDto,
  UpdatePhoneNumberDto,
} from '@vap/api';
import { ErrorCode, PhoneNumberId, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

/** Thin HTTP edge for imported phone numbers. */
@ApiTags('Phone numbers')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/phone-numbers`)
export class PhoneNumbersController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import a phone number',
    description:
      'The number must live on one of the account’s carrier connections: name the provider, or connection_id when the provider has several.',
  })
  @ApiEnvelope(PhoneNumberDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  import(@CurrentPartner() auth: AuthContext, @Body() body: ImportPhoneNumberDto): Promise<PhoneNumberDto> {
    return this.rpc.request(Subjects.calls.phoneNumberImport, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the account’s phone numbers (cursor pagination; filter by provider)' })
  @ApiEnvelope(PhoneNumberListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListPhoneNumbersQueryDto,
  ): Promise<PhoneNumberListDto> {
    return this.rpc.request(Subjects.calls.phoneNumberList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a phone number' })
  @ApiParam({ name: 'id', example: PHONE_NUMBER_ID_EXAMPLE })
  @ApiEnvelope(PhoneNumberDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Phone number', PhoneNumberId)) id: string,
  ): Promise<PhoneNumberDto> {
    return this.rpc.request(Subjects.calls.phoneNumberGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a phone number’s label or inbound agent',
    description:
      'agent_id names the agent that answers inbound calls on the number (used by inbound routing); null unassigns it.',
  })
  @ApiParam({ name: 'id', example: PHONE_NUMBER_ID_EXAMPLE })
  @ApiEnvelope(PhoneNumberDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Phone number', PhoneNumberId)) id: string,
    @Body() body: UpdatePhoneNumberDto,
  ): Promise<PhoneNumberDto> {
    return this.rpc.request(Subjects.calls.phoneNumberUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete an imported phone number',
    description:
      'A number assigned to a carrier application is detached from it first, best effort (`detached` says whether that worked). ' +
      'A default from-number (the account’s, or a carrier connection’s from_number) cannot be deleted: 409 DEFAULT_FROM_NUMBER.',
  })
  @ApiParam({ name: 'id', example: PHONE_NUMBER_ID_EXAMPLE })
  @ApiEnvelope(PhoneNumberDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.DEFAULT_FROM_NUMBER)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Phone number', PhoneNumberId)) id: string,
  ): Promise<PhoneNumberDeletedDto> {
    return this.rpc.request(Subjects.calls.phoneNumberDelete, auth.partner, { id });
  }
}
