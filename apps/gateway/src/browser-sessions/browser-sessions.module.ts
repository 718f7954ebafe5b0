import { Module } from '@nestjs/common';
import { BrowserSessionsController } from './browser-sessions.controller';

@Module({ controllers: [BrowserSessionsController] })
export class BrowserSessionsModule {}
