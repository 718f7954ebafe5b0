import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PhoneNumberDto } from '@vap/api';
import { findOwnPhoneNumber } from '../../own-phone-number';
import { toPhoneNumberDto } from '../../phone-number-dto';

/** calls.phone_number.get: one of the partner's numbers (another account's is 404). */
@Injectable()
export class GetPhoneNumber {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, id: string): Promise<PhoneNumberDto> {
    return toPhoneNumberDto(await findOwnPhoneNumber(this.dataSource, partnerId, id));
  }
}
