import { Module } from '@nestjs/common';
import { IntegrationLogWriter } from './integration-log.writer';

/** The integration log: requests made to partners' systems, stored for the partner to read. */
@Module({
  providers: [IntegrationLogWriter],
  exports: [IntegrationLogWriter],
})
export class IntegrationLogsModule {}
