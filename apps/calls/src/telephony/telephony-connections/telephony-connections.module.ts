import { DynamicModule, Module, Type } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module';
import { TelephonyConnectionsHandlers } from './telephony-connections.handlers';
import { TelephonyConnectionsService } from './telephony-connections.service';

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
      providers: [TelephonyConnectionsService],
    };
  }
}
