import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateCustomerDto,
  CustomerDto,
  CustomerListDto,
  ListCustomersQueryDto,
  UpdateCustomerDto,
} from '@vap/api';
import { CustomerId, ErrorCode } from '@vap/messages';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';
import { CustomersService } from './customers.service';

/** The gateway owns the customers table, so its routes call the service in-process, scoped to the partner. */
@ApiTags('Customers')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/customers`)
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Register a sub-tenant (B2B2B customer)' })
  @ApiEnvelope(CustomerDto)
  @ApiErrors(
    ErrorCode.INVALID_EXTERNAL_ID,
    ErrorCode.INVALID_NAME,
    ErrorCode.INVALID_EMAIL,
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.CONFLICT,
  )
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateCustomerDto): Promise<CustomerDto> {
    return this.customers.create(auth.partnerId, body);
  }

  @Get()
  @ApiOperation({ summary: 'List customers (cursor pagination; filter by external_id and status)' })
  @ApiEnvelope(CustomerListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(@CurrentPartner() auth: AuthContext, @Query() query: ListCustomersQueryDto): Promise<CustomerListDto> {
    return this.customers.list(auth.partnerId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a customer' })
  @ApiParam({ name: 'id', example: 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11' })
  @ApiEnvelope(CustomerDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Customer', CustomerId)) id: string,
  ): Promise<CustomerDto> {
    return this.customers.get(auth.partnerId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update name, email, metadata or status (ARCHIVED archives, ACTIVE restores)' })
  @ApiParam({ name: 'id', example: 'cus_3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11' })
  @ApiEnvelope(CustomerDto)
  @ApiErrors(ErrorCode.INVALID_NAME, ErrorCode.INVALID_EMAIL, ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Customer', CustomerId)) id: string,
    @Body() body: UpdateCustomerDto,
  ): Promise<CustomerDto> {
    return this.customers.update(auth.partnerId, id, body);
  }
}
