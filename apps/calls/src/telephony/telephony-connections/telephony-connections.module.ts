import { DynamicModule, Module, Type } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module';
import { TelephonyConnectionViews } from './telephony-connection-views';
import { TelephonyConnectionsHandlers } from './telephony-connections.handlers';
import { DeleteTelephonyConnection } from './usecases/delete-telephony-connection/delete-telephony-connection.usecase';
import { GetTelephonyConnection } from './usecases/get-telephony-connection/get-telephony-connection.usecase';
import { ListTelephonyConnections } from './usecases/list-telephony-connections/list-telephony-connections.usecase';
import { TestTelephonyConnection } from './usecases/test-telephony-connection/test-telephony-connection.usecase';
import { UpdateTelephonyConnection } from './usecases/update-telephony-connection/update-telephony-connection.usecase';

/**
 * The account's carrier connections as a resource (list, get, update, delete, test). A test reads the
 * carrier account through ACCOUNT_PROBES: `carriers` is the module that provides it, given by the app so
 * telephony imports no carrier.
 */
@Module({})
export class TelephonyConnectionsModule {
  static withCarriers(carriers: Type): DynamicModule {
    return {
      module: TelephonyConnectionsModule,
      imports: [ConnectionsModule, carriers],
      controllers: [TelephonyConnectionsHandlers],
      providers: [
        TelephonyConnectionViews,
        ListTelephonyConnections,
        GetTelephonyConnection,
        UpdateTelephonyConnection,
        DeleteTelephonyConnection,
        TestTelephonyConnection,
      ],
    };
  }
}
