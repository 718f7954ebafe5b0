import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AcknowledgeChargesReply, AcknowledgeChargesRequest, AppError, isUuid } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { UNBILLED_PAGE_MAX } from '../../unbilled-page';

/** calls.billing.acknowledge: the gateway debited these charges; they are billed and leave the unbilled list. */
@Injectable()
export class AcknowledgeCharges {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, req: AcknowledgeChargesRequest): Promise<AcknowledgeChargesReply> {
    const ids = Array.isArray(req.callIds) ? req.callIds : [];
    if (ids.length > UNBILLED_PAGE_MAX || ids.some((id) => !isUuid(id))) {
      throw AppError.validation([
        { field: 'callIds', message: `callIds must be at most ${UNBILLED_PAGE_MAX} call ids` },
      ]);
    }
    if (!ids.length) return { acknowledged: 0 };
    const [, count] = (await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'call_charges')} SET billed_at = now()
        WHERE partner_id = $1 AND call_id = ANY($2::uuid[]) AND billed_at IS NULL`,
      [partnerId, ids],
    )) as [unknown, number];
    return { acknowledged: count };
  }
}
