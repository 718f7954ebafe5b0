import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { BrowserSessionListDto, ListBrowserSessionsQueryDto } from '@vap/api';
import { keysetPage, tableOf } from '@vap/persistence';
import { Call } from '../../../calls/entities/call.entity';
import { CallSession } from '../../../calls/entities/call-session.entity';
import { BrowserSession } from '../../../carriers/browser/entities/browser-session.entity';
import { RecordingStore } from '../../../recording/recording-store';
import { callStatusesOf, recordingUrlOf, toBrowserSessionDto } from '../../browser-session-dto';

/** GET /browser-sessions: the partner's sessions, newest first, filtered and paged by cursor. */
@Injectable()
export class ListBrowserSessions {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recordings: RecordingStore,
  ) {}

  async execute(partnerId: string, query: ListBrowserSessionsQueryDto): Promise<BrowserSessionListDto> {
    const qb = this.dataSource
      .getRepository(Call)
      .createQueryBuilder('c')
      .where('c.partner_id = :partnerId', { partnerId })
      .andWhere(`c.kind = 'browser'`);
    if (query.agent_id) qb.andWhere('c.agent_id = :agentId', { agentId: query.agent_id });
    if (query.status) {
      const { statuses, expired } = callStatusesOf(query.status);
      qb.andWhere('c.status IN (:...statuses)', { statuses });
      if (expired !== undefined) {
        qb.andWhere(
          `EXISTS (SELECT 1 FROM ${tableOf(this.dataSource, BrowserSession)} b
                    WHERE b.call_id = c.id AND b.expired = :expired)`,
          { expired },
        );
      }
    }
    if (query.created_after) qb.andWhere('c.created_at >= :after', { after: query.created_after });
    if (query.created_before) qb.andWhere('c.created_at < :before', { before: query.created_before });
    const { rows: page, nextCursor } = await keysetPage(qb, query, { idKind: 'uuid', direction: 'DESC' });
    const ids = page.map((c) => c.id);
    const [sessions, browsers] = ids.length
      ? await Promise.all([
          this.dataSource.getRepository(CallSession).findBy({ callId: In(ids) }),
          this.dataSource.getRepository(BrowserSession).findBy({ callId: In(ids) }),
        ])
      : [[], []];
    const sessionOf = new Map(sessions.map((s) => [s.callId, s]));
    const browserOf = new Map(browsers.map((b) => [b.callId, b]));
    const browserSessions = await Promise.all(
      page.map(async (c) => {
        const session = sessionOf.get(c.id)!;
        return toBrowserSessionDto(
          c,
          session,
          browserOf.get(c.id)!,
          await recordingUrlOf(this.recordings, c, session),
        );
      }),
    );
    return { browser_sessions: browserSessions, next_cursor: nextCursor };
  }
}
