import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { CallsController } from './calls.controller';

@Module({ imports: [CustomersModule], controllers: [CallsController] })
export class CallsModule {}
