import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ConnectionDeletedDto, ConnectionLinkDto, ConnectionListDto, CreateConnectionDto } from '@vap/api';
import { ConnectionId, CustomerId, ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { GatewayConfig } from '../config/gateway.config';
import { CustomersService } from '../customers/customers.service';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const CUSTOMER_ID = { name: 'id', example: 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11' };
const CONNECTION_ID = { name: 'connection_id', example: 'cxn_5d1c7f0e-2a4b-4c3d-8e9f-0a1b2c3d4e5f' };

const CREATE_DESCRIPTION = `
Answers a hosted connect link to send the customer. For an OAuth 2.0 connector the link sends the customer to the
connector's authorization server (state and PKCE S256) and back to the platform, which exchanges the code and
stores the tokens encrypted for this customer; for an API key connector it shows a form where the customer pastes
the key. The link's token is unguessable, shown only here, expires (\`expires_at\`, 7 days) and is spent when the
customer completes it; a new link for the same connector replaces the previous one (a connected connection keeps
working until the new link is completed). One connection per customer and connector.
`;

/**
 * A customer's connections: the gateway owns customers, so it checks the customer is the account's here; the
 * agents service owns connectors and connections (its custom function runner uses their tokens).
 */
@ApiTags('Connectors')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/customers/:id/connections`)
export class CustomerConnectionsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly customers: CustomersService,
    private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Make a connect link for a customer', description: CREATE_DESCRIPTION })
  @ApiParam(CUSTOMER_ID)
  @ApiEnvelope(ConnectionLinkDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  async create(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Customer', CustomerId)) customerId: string,
    @Body() body: CreateConnectionDto,
  ): Promise<ConnectionLinkDto> {
    await this.customers.assertActive(auth.partnerId, customerId);
    return this.rpc.request(Subjects.agents.connectionCreate, auth.partner, {
      customerId,
      connectorId: body.connector_id,
      publicBaseUrl: this.config.PUBLIC_BASE_URL,
    });
  }

  @Get()
  @ApiOperation({
    summary: 'List a customer’s connections',
    description: 'Status, times and scopes of each; never a token or key.',
  })
  @ApiParam(CUSTOMER_ID)
  @ApiEnvelope(ConnectionListDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async list(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Customer', CustomerId)) customerId: string,
  ): Promise<ConnectionListDto> {
    await this.customers.get(auth.partnerId, customerId);
    return this.rpc.request(Subjects.agents.connectionList, auth.partner, { customerId });
  }

  @Delete(':connection_id')
  @ApiOperation({
    summary: 'Disconnect',
    description:
      'Deletes the connection and its credential at once; where the connector has a revocation_url the token is ' +
      'then revoked there (RFC 7009) and `revoked` says whether the server confirmed it.',
  })
  @ApiParam(CUSTOMER_ID)
  @ApiParam(CONNECTION_ID)
  @ApiEnvelope(ConnectionDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  async remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Customer', CustomerId)) customerId: string,
    @Param('connection_id', idParam('Connection', ConnectionId)) id: string,
  ): Promise<ConnectionDeletedDto> {
    await this.customers.get(auth.partnerId, customerId);
    return this.rpc.request(
      Subjects.agents.connectionDelete,
      auth.partner,
      { customerId, id },
      // A revocation endpoint is given its own request time after the row is gone.
      { timeoutMs: 20_000 },
    );
  }
}
