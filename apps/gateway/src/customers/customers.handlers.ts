import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateCustomerDto,
  CustomerDto,
  CustomerListDto,
  ListCustomersQueryDto,
  RpcRequest,
  Subjects,
  UpdateCustomerDto,
} from '@vap/contracts';
import { CustomersService } from './customers.service';

/** NATS commands of the customers module (queue group: gateway). */
@Controller()
export class CustomersHandlers {
  constructor(private readonly customers: CustomersService) {}

  @MessagePattern(Subjects.gateway.customerCreate)
  create(@Payload() req: RpcRequest<CreateCustomerDto>): Promise<CustomerDto> {
    return this.customers.create(req.partnerId!, req.data);
  }

  @MessagePattern(Subjects.gateway.customerGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<CustomerDto> {
    return this.customers.get(req.partnerId!, req.data.id);
  }

  @MessagePattern(Subjects.gateway.customerList)
  list(@Payload() req: RpcRequest<ListCustomersQueryDto>): Promise<CustomerListDto> {
    return this.customers.list(req.partnerId!, req.data);
  }

  @MessagePattern(Subjects.gateway.customerUpdate)
  update(@Payload() req: RpcRequest<{ id: string; changes: UpdateCustomerDto }>): Promise<CustomerDto> {
    return this.customers.update(req.partnerId!, req.data.id, req.data.changes);
  }
}
