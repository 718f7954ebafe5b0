import { Module } from '@nestjs/common';
import { CustomersController } from './customers.controller';
import { CustomersHandlers } from './customers.handlers';
import { CustomersService } from './customers.service';

@Module({
  controllers: [CustomersController, CustomersHandlers],
  providers: [CustomersService],
})
export class CustomersModule {}
