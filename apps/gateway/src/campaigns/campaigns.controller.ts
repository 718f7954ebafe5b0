import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  AddContactsDto,
  CAMPAIGN_ID_EXAMPLE,
  CampaignDeletedDto,
  CampaignDto,
  CampaignListDto,
  ContactListDto,
  contactRowsFromCsv,
  ContactsUploadReportDto,
  CreateCampaignDto,
  ListCampaignsQueryDto,
  ListContactsQueryDto,
  StartCampaignDto,
  UpdateCampaignDto,
} from '@vap/api';
import { CampaignId, ErrorCode, MESSAGE_BATCH_BYTES, Subjects } from '@vap/messages';
import { createValidationPipe, RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';
import { CAMPAIGN_DESCRIPTION, CONTACTS_DESCRIPTION, START_DESCRIPTION } from './campaigns.docs';
import { ContactsUploader } from './contacts-upload';

const ID_PARAM = { name: 'id', example: CAMPAIGN_ID_EXAMPLE };

/** Thin HTTP edge of the campaigns service: validates, then sends the command over NATS for the partner. */
@ApiTags('Campaigns')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/campaigns`)
export class CampaignsController {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly rpc: RpcClient,
    private readonly contacts: ContactsUploader,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a campaign (draft)', description: CAMPAIGN_DESCRIPTION })
  @ApiEnvelope(CampaignDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateCampaignDto): Promise<CampaignDto> {
    return this.rpc.request(Subjects.campaigns.campaignCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List campaigns, newest first (cursor pagination; filter by status, project_id)',
    description:
      "project_id: the campaigns whose agent is in the project now (a campaign belongs to its agent's project); " +
      "another account's or a deleted project is 404 NOT_FOUND.",
  })
  @ApiEnvelope(CampaignListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  list(@CurrentPartner() auth: AuthContext, @Query() query: ListCampaignsQueryDto): Promise<CampaignListDto> {
    return this.rpc.request(Subjects.campaigns.campaignList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a campaign with its counters' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CampaignDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Campaign', CampaignId)) id: string,
  ): Promise<CampaignDto> {
    return this.rpc.request(Subjects.campaigns.campaignGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a draft or paused campaign',
    description:
      'Any field of creation except type. Other states: 409 INVALID_STATE (only draft or paused campaigns can be updated).',
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CampaignDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Campaign', CampaignId)) id: string,
    @Body() body: UpdateCampaignDto,
  ): Promise<CampaignDto> {
    return this.rpc.request(Subjects.campaigns.campaignUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a campaign with its contacts',
    description:
      'Not while running (409 INVALID_STATE: pause it first). Calls already in flight finish on their own.',
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CampaignDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Campaign', CampaignId)) id: string,
  ): Promise<CampaignDeletedDto> {
    return this.rpc.request(Subjects.campaigns.campaignDelete, auth.partner, { id });
  }

  @Post(':id/start')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a draft campaign: dialling begins', description: START_DESCRIPTION })
  @ApiParam(ID_PARAM)
  @ApiBody({ type: StartCampaignDto, required: false })
  @ApiEnvelope(CampaignDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.INVALID_STATE,
    ErrorCode.CALLER_ID_INACTIVE,
    ErrorCode.NO_CONTACTS,
    ErrorCode.INSUFFICIENT_BALANCE,
  )
  start(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Campaign', CampaignId)) id: string,
    @Body() body: StartCampaignDto,
  ): Promise<CampaignDto> {
    return this.rpc.request(Subjects.campaigns.campaignStart, auth.partner, { id, options: body ?? {} });
  }

  @Post(':id/pause')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pause a running campaign',
    description:
      'No new calls are dialled; calls in flight finish and their outcomes are recorded. Not running: 409 ' +
      'INVALID_STATE (only running campaigns can be paused).',
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CampaignDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  pause(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Campaign', CampaignId)) id: string,
  ): Promise<CampaignDto> {
    return this.rpc.request(Subjects.campaigns.campaignPause, auth.partner, { id });
  }

  @Post(':id/resume')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Resume a paused campaign',
    description:
      'paused -> running: dialling continues where it stopped (pending contacts and due retries). Checked again: ' +
      'caller IDs active (409 CALLER_ID_INACTIVE) and a balance for one 30-second call (403 INSUFFICIENT_BALANCE). ' +
      'Not paused: 409 INVALID_STATE (only paused campaigns can be resumed).',
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CampaignDto)
  @ApiErrors(
    ErrorCode.NOT_FOUND,
    ErrorCode.INVALID_STATE,
    ErrorCode.CALLER_ID_INACTIVE,
    ErrorCode.INSUFFICIENT_BALANCE,
  )
  resume(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Campaign', CampaignId)) id: string,
  ): Promise<CampaignDto> {
    return this.rpc.request(Subjects.campaigns.campaignResume, auth.partner, { id });
  }

  @Post(':id/contacts')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add contacts (JSON or CSV) with a per-row report',
    description: CONTACTS_DESCRIPTION,
  })
  @ApiParam(ID_PARAM)
  @ApiConsumes('application/json', 'text/csv')
  @ApiBody({
    type: AddContactsDto,
    description:
      'JSON as below, or a text/csv body: header row with phone_number, optional external_id, other columns as variables',
  })
  @ApiEnvelope(ContactsUploadReportDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.INVALID_STATE,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  )
  async addContacts(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Campaign', CampaignId)) id: string,
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<ContactsUploadReportDto> {
    const rows: unknown[] = req.is('text/csv')
      ? contactRowsFromCsv(typeof body === 'string' ? body : '')
      : (await this.validation.transform(body, { type: 'body', metatype: AddContactsDto })).contacts;
    return this.contacts.upload(auth.partner, id, rows);
  }

  @Get(':id/contacts')
  @ApiOperation({
    summary: 'List a campaign’s contacts in upload order',
    description:
      'Per contact: status (pending, dialing, retry_wait, completed, failed, skipped), attempts, call ids and attempt history. ' +
      `A page ends at limit contacts or at ${MESSAGE_BATCH_BYTES / 1024} KB of them, whichever comes first; next_cursor goes on from there.`,
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(ContactListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  listContacts(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Campaign', CampaignId)) id: string,
    @Query() query: ListContactsQueryDto,
  ): Promise<ContactListDto> {
    return this.rpc.request(Subjects.campaigns.contactsList, auth.partner, { id, query });
  }
}
