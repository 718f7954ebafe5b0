import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ConnectorDeletedDto,
  ConnectorDto,
  ConnectorLimits,
  ConnectorListDto,
  CreateConnectorDto,
  ListConnectorsQueryDto,
  UpdateConnectorDto,
} from '@vap/api';
import { ConnectorId, ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const CONNECTOR_ID = { name: 'id', example: 'ctr_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' };
const RESOURCE = 'Connector';

const CREATE_DESCRIPTION = `
A connector is a kind of external account your customers connect through a hosted link
(\`POST /customers/{id}/connections\`): an OAuth 2.0 authorization-code client (RFC 6749 §4.1, always with PKCE
S256, RFC 7636), or an API key the customer pastes. Register the platform's callback,
\`{PUBLIC_BASE_URL}/connect/oauth/callback\`, as a redirect URI of your OAuth client. The client secret is stored
encrypted and never returned. At most ${ConnectorLimits.perAccount} connectors per account (429 LIMIT_REACHED).
`;

/** Connectors: thin HTTP edge of the agents service, which owns them with the connections. */
@ApiTags('Connectors')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/connectors`)
export class ConnectorsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a connector', description: CREATE_DESCRIPTION })
  @ApiEnvelope(ConnectorDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.CONFLICT, ErrorCode.LIMIT_REACHED)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateConnectorDto): Promise<ConnectorDto> {
    return this.rpc.request(Subjects.agents.connectorCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List connectors (cursor pagination)' })
  @ApiEnvelope(ConnectorListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListConnectorsQueryDto,
  ): Promise<ConnectorListDto> {
    return this.rpc.request(Subjects.agents.connectorList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a connector (the client secret never shown)' })
  @ApiParam(CONNECTOR_ID)
  @ApiEnvelope(ConnectorDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, ConnectorId)) id: string,
  ): Promise<ConnectorDto> {
    return this.rpc.request(Subjects.agents.connectorGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a connector',
    description:
      'The type never changes. oauth2 fields given replace the stored ones (client_secret: a new secret, null none); ' +
      'api_key replaces the placement whole. Existing connections use the new settings from their next request.',
  })
  @ApiParam(CONNECTOR_ID)
  @ApiEnvelope(ConnectorDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, ConnectorId)) id: string,
    @Body() body: UpdateConnectorDto,
  ): Promise<ConnectorDto> {
    return this.rpc.request(Subjects.agents.connectorUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a connector and every customer’s connection to it',
    description: '409 CONFLICT while a custom function authenticates with it. Tokens are not revoked.',
  })
  @ApiParam(CONNECTOR_ID)
  @ApiEnvelope(ConnectorDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE, ConnectorId)) id: string,
  ): Promise<ConnectorDeletedDto> {
    return this.rpc.request(Subjects.agents.connectorDelete, auth.partner, { id });
  }
}
