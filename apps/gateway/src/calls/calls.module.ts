import { Module } from '@nestjs/common';
import { CallChargesConsumer } from '../billing/call-charges.consumer';
import { CallsController } from './calls.controller';

@Module({ controllers: [CallsController], providers: [CallChargesConsumer] })
export class CallsModule {}
