import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DoNotCallLookupDto } from '@vap/api';
import { doNotCallMatches, toDoNotCallDto } from '../../do-not-call.service';

/** calls.do_not_call.lookup: whether a number is listed, and the entries that cover it (longest first). */
@Injectable()
export class LookUpDoNotCall {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, number: string): Promise<DoNotCallLookupDto> {
    const matches = await doNotCallMatches(this.dataSource.manager, partnerId, number);
    return { number, listed: matches.length > 0, matches: matches.map(toDoNotCallDto) };
  }
}
