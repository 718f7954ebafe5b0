import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BillingUsageDto,
  BillingUsageQueryDto,
  ClientAuditListDto,
  ClientAuditQueryDto,
  ClientDto,
  ClientFundingDto,
  ClientListDto,
  CreateClientDto,
  CreatedClientDto,
  CursorQueryDto,
  FundClientDto,
  MAX_RESELLER_CLIENTS,
  UpdateClientDto,
  USAGE_MAX_RANGE_DAYS,
} from '@vap/api';
import { ErrorCode } from '@vap/messages';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { BillingUsageService } from '../billing/billing-usage.service';
import { API_PREFIX } from '../http/api-docs';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { ClientsService, toClientDto } from './clients.service';
import { ResellerAuditService } from './reseller-audit.service';

const RESELLERS_ONLY = 'Only for a reseller (the operator marks one); any other account gets 403 FORBIDDEN.';

/**
 * A reseller's client accounts. The gateway owns partners and the ledger, so the routes call in-process
 * services; each is scoped to the calling reseller, and another reseller's client is 404.
 */
@ApiTags('Reseller clients')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/clients`)
export class ClientsController {
  constructor(
    private readonly clients: ClientsService,
    private readonly audit: ResellerAuditService,
    private readonly usageReports: BillingUsageService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a client account and its first API key (shown once)',
    description:
      'The client is an account of its own: its keys, agents, calls and balance (0 until funded) are its own, ' +
      'unseen by the reseller except through X-On-Behalf-Of. concurrency_limit is at most the reseller’s; ' +
      'price_per_minute_inr (the rate card) at least the platform’s price a minute. ' +
      `A reseller holds at most ${MAX_RESELLER_CLIENTS} clients (429 LIMIT_REACHED). ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(CreatedClientDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.LIMIT_REACHED)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateClientDto): Promise<CreatedClientDto> {
    return this.clients.create(auth.partnerId, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List the reseller’s clients, oldest first (cursor pagination)',
    description: RESELLERS_ONLY,
  })
  @ApiEnvelope(ClientListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(@CurrentPartner() auth: AuthContext, @Query() query: CursorQueryDto): Promise<ClientListDto> {
    return this.clients.list(auth.partnerId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a client', description: RESELLERS_ONLY })
  @ApiEnvelope(ClientDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
  ): Promise<ClientDto> {
    return toClientDto(await this.clients.get(auth.partnerId, id));
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a client’s name, email, concurrency limit or rate card',
    description: `A new rate card applies to the calls charged from then on. ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(ClientDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
    @Body() body: UpdateClientDto,
  ): Promise<ClientDto> {
    return this.clients.update(auth.partnerId, id, body);
  }

  @Post(':id/suspend')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Suspend a client: its keys answer 403 FORBIDDEN until resumed',
    description:
      'A suspended client stays suspended (nothing changes); a client the operator holds as pending is 409 ' +
      `INVALID_STATE. ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(ClientDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  suspend(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
  ): Promise<ClientDto> {
    return this.clients.suspend(auth.partnerId, id);
  }

  @Post(':id/resume')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Resume a client the reseller suspended',
    description:
      'An active client stays active; a suspension (or pending state) set by the platform operator is 409 ' +
      `INVALID_STATE: only the operator lifts it. ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(ClientDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  resume(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
  ): Promise<ClientDto> {
    return this.clients.resume(auth.partnerId, id);
  }

  @Post(':id/fund')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move balance from the reseller to the client',
    description:
      'One transaction: the reseller’s balance goes down and the client’s up by amount_inr, with a transfer ' +
      'entry in each ledger (GET /billing/transactions). 403 INSUFFICIENT_BALANCE when the reseller’s balance ' +
      `does not cover it; nothing moves. ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(ClientFundingDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.INSUFFICIENT_BALANCE)
  fund(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
    @Body() body: FundClientDto,
  ): Promise<ClientFundingDto> {
    return this.clients.fund(auth.partnerId, id, body.amount_inr);
  }

  @Get(':id/usage')
  @ApiOperation({
    summary: 'A client’s usage over a time range, grouped',
    description:
      'As GET /billing/usage for the client’s own account: its charges in [from, to) (at its rate card) per ' +
      `UTC day, agent, campaign or project. The range is at most ${USAGE_MAX_RANGE_DAYS} days. ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(BillingUsageDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  async usage(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
    @Query() query: BillingUsageQueryDto,
  ): Promise<BillingUsageDto> {
    const client = await this.clients.get(auth.partnerId, id);
    return this.usageReports.usage(client.id, query);
  }

  @Get(':id/audit')
  @ApiOperation({
    summary: 'The requests made on behalf of a client (X-On-Behalf-Of), newest first',
    description:
      'Each request a key of the reseller made as the client: the key, method, path, status answered, request ' +
      `id and time, kept for RESELLER_AUDIT_RETENTION_DAYS (90 by default). ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(ClientAuditListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  async auditLog(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
    @Query() query: ClientAuditQueryDto,
  ): Promise<ClientAuditListDto> {
    const client = await this.clients.get(auth.partnerId, id);
    return this.audit.list(auth.partnerId, client.id, query);
  }
}
