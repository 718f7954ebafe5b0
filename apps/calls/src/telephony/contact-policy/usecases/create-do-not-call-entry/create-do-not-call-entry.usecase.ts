import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CreateDoNotCallDto, DoNotCallEntryDto } from '@vap/api';
import { AppError, DoNotCallId, ErrorCode } from '@vap/messages';
import { isUniqueViolation } from '@vap/persistence';
import { lockDoNotCallList } from '../../do-not-call-lock';
import { toDoNotCallDto } from '../../do-not-call.service';
import { DoNotCallEntry } from '../../entities/do-not-call-entry.entity';

/**
 * calls.do_not_call.create: a number or prefix the partner lists (number and prefix both given is a validation
 * error; one already listed is 409 naming the entry). Written under the list's lock, as opt-outs are.
 */
@Injectable()
export class CreateDoNotCallEntry {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, input: CreateDoNotCallDto): Promise<DoNotCallEntryDto> {
    if (input.number !== undefined && input.prefix !== undefined) {
      throw AppError.validation([{ field: 'prefix', message: 'give number or prefix, not both' }]);
    }
    const kind = input.number !== undefined ? 'number' : 'prefix';
    const value = (input.number ?? input.prefix)!;
    const repo = this.dataSource.getRepository(DoNotCallEntry);
    try {
      const entry = repo.create({
        id: DoNotCallId.format(randomUUID()),
        partnerId,
        kind,
        value,
        reason: input.reason,
        source: input.source ?? 'api',
        note: input.note ?? null,
      });
      await this.dataSource.transaction(async (em) => {
        await lockDoNotCallList(em, partnerId);
        await em.insert(DoNotCallEntry, entry);
      });
      return toDoNotCallDto((await repo.findOneBy({ id: entry.id }))!);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const existing = await repo.findOneBy({ partnerId, kind, value });
      throw new AppError(
        ErrorCode.CONFLICT,
        `${kind === 'number' ? 'The number' : 'The prefix'} ${value} is already on the do-not-call list` +
          (existing ? ` (${existing.id})` : ''),
      );
    }
  }
}
