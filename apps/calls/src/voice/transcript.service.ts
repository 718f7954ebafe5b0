import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TranscriptEntry } from '@vap/contracts';
import { tableOf } from '@vap/persistence';

/** The live transcript of a session, appended turn by turn as the voice pipeline produces it. */
@Injectable()
export class TranscriptService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * callSeconds: how long the call has run by its own clock (the sandbox's is simulated), so what the
   * call has cost so far is known while it is live (see BalanceGuard).
   */
  async append(
    callId: string,
    role: TranscriptEntry['role'],
    content: string,
    callSeconds?: number,
  ): Promise<TranscriptEntry> {
    const entry: TranscriptEntry = { role, content, timestamp: new Date().toISOString() };
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'call_sessions')}
          SET transcript = transcript || $2::jsonb, live_seconds = COALESCE($3, live_seconds)
        WHERE call_id = $1`,
      [callId, JSON.stringify([entry]), callSeconds ?? null],
    );
    return entry;
  }
}
