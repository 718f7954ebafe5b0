import { Module } from '@nestjs/common';
import { CarriersModule } from '../../carriers/carriers.module';
import { DefaultLineService } from '../connections/default-line.service';
import { PhoneNumbersHandlers } from './phone-numbers.handlers';
import { PhoneNumbersService } from './phone-numbers.service';

@Module({
  imports: [CarriersModule],
  controllers: [PhoneNumbersHandlers],
  providers: [PhoneNumbersService, DefaultLineService],
})
export class PhoneNumbersModule {}
