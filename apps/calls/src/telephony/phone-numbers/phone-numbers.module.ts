import { DynamicModule, Module, Type } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module';
import { PhoneNumbersHandlers } from './phone-numbers.handlers';
import { DeletePhoneNumber } from './usecases/delete-phone-number/delete-phone-number.usecase';
import { GetPhoneNumber } from './usecases/get-phone-number/get-phone-number.usecase';
import { ImportPhoneNumber } from './usecases/import-phone-number/import-phone-number.usecase';
import { ListPhoneNumbers } from './usecases/list-phone-numbers/list-phone-numbers.usecase';
import { UpdatePhoneNumber } from './usecases/update-phone-number/update-phone-number.usecase';

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
      providers: [ImportPhoneNumber, ListPhoneNumbers, GetPhoneNumber, UpdatePhoneNumber, DeletePhoneNumber],
    };
  }
}
