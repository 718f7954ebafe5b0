import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StartCallDto } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { DefaultLineService } from '../../../telephony/connections/default-line.service';
import { PhoneNumber } from '../../../telephony/phone-numbers/entities/phone-number.entity';

/** The caller ID of a start: by phone_number_id, by from_number, else the partner's default number. */
@Injectable()
export class FromNumberResolver {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: DefaultLineService,
  ) {}

  async resolve(partnerId: string, input: StartCallDto): Promise<PhoneNumber> {
    if (input.from_number !== undefined && input.phone_number_id !== undefined) {
      throw AppError.validation([
        { field: 'from_number', message: 'send from_number or phone_number_id, not both' },
      ]);
    }
    // The sandbox line exists before any lookup, so its default number can also be named explicitly.
    await this.lines.defaultNumber(partnerId);
    const repo = this.dataSource.getRepository(PhoneNumber);
    let number: PhoneNumber | null;
    if (input.phone_number_id !== undefined) {
      number = await repo.findOne({ where: { id: input.phone_number_id, partnerId } });
      if (!number) throw AppError.notFound('Phone number');
    } else if (input.from_number !== undefined) {
      number = await repo.findOne({ where: { number: input.from_number, partnerId } });
      if (!number) {
        throw AppError.validation([
          { field: 'from_number', message: `${input.from_number} is not a phone number of this account` },
        ]);
      }
    } else {
      number = await this.lines.defaultNumber(partnerId);
    }
    if (number.status !== 'active') {
      throw new AppError(ErrorCode.CALLER_ID_INACTIVE, `Caller ID ${number.number} is not active`);
    }
    return number;
  }
}
