import { Module } from '@nestjs/common';
import { IntegrationLogWriter } from './integration-log.writer';
import { IntegrationLogsHandlers } from './integration-logs.handlers';
import { IntegrationLogsPruner } from './integration-logs-pruner.service';
import { IntegrationLogsService } from './integration-logs.service';
import { RequestLoggedConsumer } from './request-logged.consumer';

/** The integration log: requests made to partners' systems, stored for the partner to read, then pruned. */
@Module({
  controllers: [IntegrationLogsHandlers],
  providers: [IntegrationLogWriter, IntegrationLogsService, RequestLoggedConsumer, IntegrationLogsPruner],
  exports: [IntegrationLogWriter],
})
export class IntegrationLogsModule {}
