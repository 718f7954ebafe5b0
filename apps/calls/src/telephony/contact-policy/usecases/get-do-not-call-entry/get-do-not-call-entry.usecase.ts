import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DoNotCallEntryDto } from '@vap/api';
import { findOwnDoNotCallEntry, toDoNotCallDto } from '../../do-not-call.service';

/** calls.do_not_call.get: one of the partner's entries (another account's is 404). */
@Injectable()
export class GetDoNotCallEntry {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, id: string): Promise<DoNotCallEntryDto> {
    return toDoNotCallDto(await findOwnDoNotCallEntry(this.dataSource.manager, partnerId, id));
  }
}
