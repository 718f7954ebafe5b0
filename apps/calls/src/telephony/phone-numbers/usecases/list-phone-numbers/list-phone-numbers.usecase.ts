import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ListPhoneNumbersQueryDto, PhoneNumberListDto } from '@vap/api';
import { keysetPage } from '@vap/persistence';
import { DefaultLineService } from '../../../connections/default-line.service';
import { PhoneNumber } from '../../entities/phone-number.entity';
import { toPhoneNumberDto } from '../../phone-number-dto';

/** calls.phone_number.list: a page of the partner's numbers, optionally of one provider. */
@Injectable()
export class ListPhoneNumbers {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: DefaultLineService,
  ) {}

  async execute(partnerId: string, query: ListPhoneNumbersQueryDto): Promise<PhoneNumberListDto> {
    // The default from-number exists from the start for the partner, not only after a first call.
    await this.lines.ensureSandbox(partnerId);
    const qb = this.dataSource
      .getRepository(PhoneNumber)
      .createQueryBuilder('n')
      .where('n.partner_id = :partnerId', { partnerId });
    if (query.provider) qb.andWhere('n.provider = :provider', { provider: query.provider });
    const page = await keysetPage(qb, query, { idKind: 'prefixed' });
    return { phone_numbers: page.rows.map(toPhoneNumberDto), next_cursor: page.nextCursor };
  }
}
