import { DynamicModule, Module, Type } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module';
import { PhoneNumbersHandlers } from './phone-numbers.handlers';
import { PhoneNumbersService } from './phone-numbers.service';

/**
 * A partner's phone numbers on its connections (a number deleted is detached at its carrier first, through
 * NUMBER_DETACHERS: `carriers` is the module that provides it, given by the app so telephony imports no stage).
 */
@Module({})
export class PhoneNumbersModule {
  static withCarriers(carriers: Type): DynamicModule {
    return {
      module: PhoneNumbersModule,
      imports: [ConnectionsModule, carriers],
      controllers: [PhoneNumbersHandlers],
      providers: [PhoneNumbersService],
    };
  }
}
