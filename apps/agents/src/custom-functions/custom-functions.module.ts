import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConnectorsModule } from '../connectors/connectors.module';
import { IntegrationLogsModule } from '../integration-logs/integration-logs.module';
import { PartnerRequestClient } from '../partner-requests/partner-request-client';
import { CustomFunctionCache } from './custom-function-cache';
import { CustomFunctionRunner } from './custom-function-runner';
import { CustomFunctionSecrets } from './custom-function-secrets';
import { CustomFunctionsHandlers } from './custom-functions.handlers';
import { CustomFunctionsService } from './custom-functions.service';

@Module({
  imports: [AgentsModule, IntegrationLogsModule, ConnectorsModule],
  controllers: [CustomFunctionsHandlers],
  providers: [
    CustomFunctionsService,
    CustomFunctionSecrets,
    CustomFunctionCache,
    CustomFunctionRunner,
    PartnerRequestClient,
  ],
})
export class CustomFunctionsModule {}
