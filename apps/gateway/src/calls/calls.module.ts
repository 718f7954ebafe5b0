import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { CallsController } from './calls.controller';

@Module({ imports: [IdempotencyModule], controllers: [CallsController] })
export class CallsModule {}
