import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { CallDto, CallListDto, ListCallsQueryDto, RecordingUrlDto } from '@vap/api';
import { AppError, isUuid } from '@vap/messages';
import { keysetPage } from '@vap/persistence';
import { RecordingStore } from '../recording/recording-store';
import { toCallDto } from './call-dto';
import { Call } from './entities/call.entity';
import { CallSession } from './entities/call-session.entity';

/** Reading calls. Every query is scoped by partner: another partner's call is absent (404). */
@Injectable()
export class CallsQueryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recordings: RecordingStore,
  ) {}

  async get(partnerId: string, id: string): Promise<CallDto> {
    const call = await this.find(partnerId, id);
    const session = await this.dataSource.getRepository(CallSession).findOneByOrFail({ callId: call.id });
    return toCallDto(call, session, await this.urlOf(call, session));
  }

  async list(partnerId: string, query: ListCallsQueryDto): Promise<CallListDto> {
    const qb = this.dataSource
      .getRepository(Call)
      .createQueryBuilder('c')
      .where('c.partner_id = :partnerId', { partnerId })
      // Browser sessions are call rows too, listed at /browser-sessions only.
      .andWhere(`c.kind = 'phone'`);
    if (query.agent_id) qb.andWhere('c.agent_id = :agentId', { agentId: query.agent_id });
    if (query.status) qb.andWhere('c.status = :status', { status: query.status });
    if (query.direction) qb.andWhere('c.direction = :direction', { direction: query.direction });
    if (query.client_reference_id !== undefined) {
      qb.andWhere('c.client_reference_id = :ref', { ref: query.client_reference_id });
    }
    if (query.created_after) qb.andWhere('c.created_at >= :after', { after: query.created_after });
    if (query.created_before) qb.andWhere('c.created_at < :before', { before: query.created_before });
    const { rows: page, nextCursor } = await keysetPage(qb, query, { idKind: 'uuid', direction: 'DESC' });
    const sessions = page.length
      ? await this.dataSource.getRepository(CallSession).findBy({ callId: In(page.map((c) => c.id)) })
      : [];
    const byCall = new Map(sessions.map((s) => [s.callId, s]));
    const calls = await Promise.all(
      page.map(async (c) => {
        const session = byCall.get(c.id)!;
        return toCallDto(c, session, await this.urlOf(c, session));
      }),
    );
    return { calls, next_cursor: nextCursor };
  }

  /** A fresh signed URL; 404 when recording was off for the call or nothing was recorded (yet). */
  async recordingUrl(partnerId: string, id: string): Promise<RecordingUrlDto> {
    const call = await this.find(partnerId, id);
    const session = await this.dataSource.getRepository(CallSession).findOneByOrFail({ callId: call.id });
    if (!call.agentSettings.enableRecording)
      throw AppError.notFound('Recording (recording was disabled for this call)');
    if (!session.recordingKey) throw AppError.notFound('Recording (none stored for this call yet)');
    const signed = await this.recordings.signedUrl(session.recordingKey, call.id);
    return { call_id: call.id, recording_url: signed.url, expires_at: signed.expiresAt.toISOString() };
  }

  private async find(partnerId: string, id: string): Promise<Call> {
    const call = isUuid(id)
      ? await this.dataSource.getRepository(Call).findOne({ where: { id, partnerId, kind: 'phone' } })
      : null;
    if (!call) throw AppError.notFound('Call');
    return call;
  }

  private async urlOf(call: Call, session: CallSession): Promise<string | null> {
    if (!call.agentSettings.enableRecording || !session.recordingKey) return null;
    return (await this.recordings.signedUrl(session.recordingKey, call.id)).url;
  }
}
