import { Module } from '@nestjs/common';
import { CarriersModule } from '../../carriers/carriers.module';
import { ConnectionsModule } from '../connections/connections.module';
import { PhoneNumbersHandlers } from './phone-numbers.handlers';
import { PhoneNumbersService } from './phone-numbers.service';

/** A partner's phone numbers on its connections (a number deleted is detached at its carrier first). */
@Module({
  imports: [ConnectionsModule, CarriersModule],
  controllers: [PhoneNumbersHandlers],
  providers: [PhoneNumbersService],
})
export class PhoneNumbersModule {}
