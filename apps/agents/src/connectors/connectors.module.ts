import { Module } from '@nestjs/common';
import { ConnectFlowService } from './connect-flow.service';
import { ConnectionCredentials } from './connection-credentials';
import { ConnectionsService } from './connections.service';
import { ConnectorSecrets } from './connector-secrets';
import { ConnectorsHandlers } from './connectors.handlers';
import { ConnectorsService } from './connectors.service';
import { OAuthClient } from './oauth-client';

@Module({
  controllers: [ConnectorsHandlers],
  providers: [
    ConnectorsService,
    ConnectionsService,
    ConnectFlowService,
    ConnectionCredentials,
    ConnectorSecrets,
    OAuthClient,
  ],
  exports: [ConnectionCredentials],
})
export class ConnectorsModule {}
