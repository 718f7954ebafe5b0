import { Module } from '@nestjs/common';
import { PhoneNumbersController } from './phone-numbers.controller';

@Module({ controllers: [PhoneNumbersController] })
export class PhoneNumbersModule {}
