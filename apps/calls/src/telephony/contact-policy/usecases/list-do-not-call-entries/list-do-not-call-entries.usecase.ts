import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DoNotCallListDto, ListDoNotCallQueryDto } from '@vap/api';
import { keysetPage } from '@vap/persistence';
import { toDoNotCallDto } from '../../do-not-call.service';
import { DoNotCallEntry } from '../../entities/do-not-call-entry.entity';

/** calls.do_not_call.list: a page of the partner's entries, newest first, by reason or kind. */
@Injectable()
export class ListDoNotCallEntries {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, query: ListDoNotCallQueryDto): Promise<DoNotCallListDto> {
    const qb = this.dataSource
      .getRepository(DoNotCallEntry)
      .createQueryBuilder('d')
      .where('d.partner_id = :partnerId', { partnerId });
    if (query.reason) qb.andWhere('d.reason = :reason', { reason: query.reason });
    if (query.kind) qb.andWhere('d.kind = :kind', { kind: query.kind });
    const page = await keysetPage(qb, query, { idKind: 'prefixed', direction: 'DESC' });
    return { entries: page.rows.map(toDoNotCallDto), next_cursor: page.nextCursor };
  }
}
