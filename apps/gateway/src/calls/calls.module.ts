import { Module } from '@nestjs/common';
import { CallChargesConsumer } from '../billing/call-charges.consumer';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { CallsController } from './calls.controller';

@Module({ imports: [IdempotencyModule], controllers: [CallsController], providers: [CallChargesConsumer] })
export class CallsModule {}
