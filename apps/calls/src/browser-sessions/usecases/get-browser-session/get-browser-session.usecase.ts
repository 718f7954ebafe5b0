import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BrowserSessionDto } from '@vap/api';
import { AppError, isUuid } from '@vap/messages';
import { Call } from '../../../calls/entities/call.entity';
import { CallSession } from '../../../calls/entities/call-session.entity';
import { BrowserSession } from '../../../carriers/browser/entities/browser-session.entity';
import { RecordingStore } from '../../../recording/recording-store';
import { recordingUrlOf, toBrowserSessionDto } from '../../browser-session-dto';

/** GET /browser-sessions/{id}: one of the partner's sessions (another account's is 404). */
@Injectable()
export class GetBrowserSession {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recordings: RecordingStore,
  ) {}

  async execute(partnerId: string, id: string): Promise<BrowserSessionDto> {
    const call = isUuid(id)
      ? await this.dataSource.getRepository(Call).findOne({ where: { id, partnerId, kind: 'browser' } })
      : null;
    if (!call) throw AppError.notFound('Browser session');
    const [session, browser] = await Promise.all([
      this.dataSource.getRepository(CallSession).findOneByOrFail({ callId: call.id }),
      this.dataSource.getRepository(BrowserSession).findOneByOrFail({ callId: call.id }),
    ]);
    return toBrowserSessionDto(call, session, browser, await recordingUrlOf(this.recordings, call, session));
  }
}
