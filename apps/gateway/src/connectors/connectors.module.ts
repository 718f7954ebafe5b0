import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { ConnectPagesController } from './connect-pages.controller';
import { ConnectorsController } from './connectors.controller';
import { CustomerConnectionsController } from './customer-connections.controller';

@Module({
  imports: [CustomersModule],
  controllers: [ConnectorsController, CustomerConnectionsController, ConnectPagesController],
})
export class ConnectorsModule {}
