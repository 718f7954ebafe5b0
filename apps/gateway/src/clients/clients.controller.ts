import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ApiKeyListDto,
  ApiKeySummaryDto,
  BillingUsageDto,
  BillingUsageQueryDto,
  ClientAuditListDto,
  ClientAuditQueryDto,
  ClientDto,
  ClientFundingDto,
  ClientListDto,
  CreateApiKeyDto,
  CreateClientDto,
  CreatedApiKeyDto,
  CreatedClientDto,
  CursorQueryDto,
  FundClientDto,
  MAX_ACTIVE_API_KEYS,
  MAX_RESELLER_CLIENTS,
  UpdateClientDto,
  USAGE_MAX_RANGE_DAYS,
} from '@vap/api';
import { ErrorCode } from '@vap/messages';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { BillingUsageService } from '../billing/billing-usage.service';
import { assertConsoleRoleMay, ROLE_MAY } from '../console/console-auth';
import { API_PREFIX } from '../http/api-docs';
import { idParam } from '../http/id-param';
import { IdempotencyKey, REPLAYED_HEADER } from '../idempotency/idempotency-key';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { ClientsService, FUND_KEY_RETENTION_HOURS, toClientDto } from './clients.service';
import { ResellerAuditService } from './reseller-audit.service';

/**
 * Through the console, a client's keys are managed by the roles that manage the account's own (owners and
 * admins), as on the console's key page; an API key that reaches the route may.
 */
function mayManageKeys(req: Request): void {
  assertConsoleRoleMay(req, ROLE_MAY.manageKeys, 'manage API keys');
}

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
      'does not cover it; nothing moves. Send Idempotency-Key to make a retry safe: the same key for the same ' +
      'client and amount answers the first transfer again (response header Idempotency-Replayed: true) and ' +
      'moves nothing; the same key for another client or amount is 409 CONFLICT. A key names its transfer for ' +
      `${FUND_KEY_RETENTION_HOURS} hours; a refused request keeps no key. ${RESELLERS_ONLY}`,
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1..255 printable ASCII characters' })
  @ApiEnvelope(ClientFundingDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.INSUFFICIENT_BALANCE,
    ErrorCode.CONFLICT,
  )
  async fund(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
    @Body() body: FundClientDto,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ClientFundingDto> {
    const { funding, replayed } = await this.clients.fund(
      auth.partnerId,
      id,
      body.amount_inr,
      idempotencyKey,
    );
    if (replayed) res.setHeader(REPLAYED_HEADER, 'true');
    return funding;
  }

  @Get(':id/api-keys')
  @ApiOperation({
    summary: 'List a client’s API keys (prefixes only, never the keys), revoked ones included',
    description: `Audited in GET /clients/{id}/audit. ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(ApiKeyListDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async listKeys(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiKeyListDto> {
    // Only the caller's own clients are audited: the lookup (404 otherwise) comes first.
    const client = await this.clients.get(auth.partnerId, id);
    this.auditRequest(req, res, auth, client.id);
    return { api_keys: await this.clients.listKeys(client) };
  }

  @Post(':id/api-keys')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue the client another API key (shown once)',
    description:
      'As the operator issues one: without `scopes` the key has full access to the client’s account; with ' +
      `them, only what they allow. An account holds at most ${MAX_ACTIVE_API_KEYS} active keys: one more is ` +
      `429 LIMIT_REACHED (revoke one first). Audited in GET /clients/{id}/audit. From the console: owners and ` +
      `admins only. ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(CreatedApiKeyDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.LIMIT_REACHED)
  async issueKey(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
    @Body() body: CreateApiKeyDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreatedApiKeyDto> {
    mayManageKeys(req);
    const client = await this.clients.get(auth.partnerId, id);
    this.auditRequest(req, res, auth, client.id);
    return this.clients.issueKey(client, body);
  }

  @Delete(':id/api-keys/:keyId')
  @ApiOperation({
    summary: 'Revoke a client’s API key: it stops working at once on every gateway',
    description:
      'Revoking a revoked key changes nothing. Audited in GET /clients/{id}/audit. From the console: owners and ' +
      `admins only. ${RESELLERS_ONLY}`,
  })
  @ApiEnvelope(ApiKeySummaryDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async revokeKey(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Client')) id: string,
    @Param('keyId', idParam('API key')) keyId: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiKeySummaryDto> {
    mayManageKeys(req);
    const client = await this.clients.get(auth.partnerId, id);
    this.auditRequest(req, res, auth, client.id);
    return this.clients.revokeKey(client, keyId);
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

  /** A request on the client's credentials, audited with those made on its behalf (once it is the caller's). */
  private auditRequest(req: Request, res: Response, auth: AuthContext, clientId: string): void {
    this.audit.recordWhenFinished(req, res, {
      resellerId: auth.partnerId,
      clientId,
      apiKeyId: auth.apiKeyId,
    });
  }
}
