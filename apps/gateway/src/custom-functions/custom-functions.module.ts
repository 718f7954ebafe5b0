import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { AgentCustomFunctionsController } from './agent-custom-functions.controller';
import { CustomFunctionsController } from './custom-functions.controller';

@Module({
  imports: [CustomersModule],
  controllers: [CustomFunctionsController, AgentCustomFunctionsController],
})
export class CustomFunctionsModule {}
