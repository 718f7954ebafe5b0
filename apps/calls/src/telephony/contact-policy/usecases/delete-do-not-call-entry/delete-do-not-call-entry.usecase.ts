import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DoNotCallDeletedDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { DoNotCallEntry } from '../../entities/do-not-call-entry.entity';

/** calls.do_not_call.delete: the entry leaves the list, so its number may be dialled again. */
@Injectable()
export class DeleteDoNotCallEntry {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, id: string): Promise<DoNotCallDeletedDto> {
    const result = await this.dataSource.getRepository(DoNotCallEntry).delete({ id, partnerId });
    if (!result.affected) throw AppError.notFound('Do-not-call entry');
    return { id, deleted: true, message: 'Do-not-call entry deleted; the number may be dialled again' };
  }
}
