import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TranscriptEntry } from '@vap/contracts';

/** The live transcript of a session, appended turn by turn as the voice pipeline produces it. */
@Injectable()
export class TranscriptService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async append(callId: string, role: TranscriptEntry['role'], content: string): Promise<TranscriptEntry> {
    const entry: TranscriptEntry = { role, content, timestamp: new Date().toISOString() };
    await this.dataSource.query(
      `UPDATE calls.call_sessions SET transcript = transcript || $2::jsonb WHERE call_id = $1`,
      [callId, JSON.stringify([entry])],
    );
    return entry;
  }
}
