import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DoNotCallEntryDto, UpdateDoNotCallDto } from '@vap/api';
import { findOwnDoNotCallEntry, toDoNotCallDto } from '../../do-not-call.service';

/** calls.do_not_call.update: an entry's reason, source and note (its number or prefix stays). */
@Injectable()
export class UpdateDoNotCallEntry {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  execute(partnerId: string, id: string, changes: UpdateDoNotCallDto): Promise<DoNotCallEntryDto> {
    return this.dataSource.transaction(async (em) => {
      const entry = await findOwnDoNotCallEntry(em, partnerId, id, true);
      if (changes.reason !== undefined) entry.reason = changes.reason;
      if (changes.source !== undefined) entry.source = changes.source;
      if (changes.note !== undefined) entry.note = changes.note;
      await em.save(entry);
      return toDoNotCallDto(entry);
    });
  }
}
