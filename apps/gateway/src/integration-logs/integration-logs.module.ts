import { Module } from '@nestjs/common';
import { IntegrationLogsController } from './integration-logs.controller';

@Module({ controllers: [IntegrationLogsController] })
export class IntegrationLogsModule {}
