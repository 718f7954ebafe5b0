import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { BrowserSessionsController } from './browser-sessions.controller';

@Module({ imports: [CustomersModule], controllers: [BrowserSessionsController] })
export class BrowserSessionsModule {}
