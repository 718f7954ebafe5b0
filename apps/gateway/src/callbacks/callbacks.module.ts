import { Module } from '@nestjs/common';
import { CarrierCallbacksController } from './carrier-callbacks.controller';

@Module({ controllers: [CarrierCallbacksController] })
export class CallbacksModule {}
