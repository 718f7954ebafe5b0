import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RecordedTurnLatency, TranscriptEntry, TurnModelUsage, TurnProviders } from '@vap/messages';
import { tableOf } from '@vap/persistence';

/** What is known of a line besides who said what. */
export interface TranscriptLineDetails {
  /** When the line started being said (default: now). */
  at?: Date;
  /** An agent turn's latency parts (kept on bot lines only). */
  latency?: RecordedTurnLatency;
  /** The providers that served an agent turn (kept on bot lines only). */
  providers?: TurnProviders;
  /** The tokens of the model rounds behind a line a model wrote (kept on bot lines only). */
  usage?: TurnModelUsage;
  /** A bot line the caller cut short (barge-in) or hung up on: it holds what was played. */
  interrupted?: boolean;
  /** The line's place on its media stream: a repeat of a line already recorded changes nothing. */
  once?: { streamId: string; seq: number };
}

/** The live transcript of a session, appended turn by turn as the voice pipeline produces it. */
@Injectable()
export class TranscriptService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * callSeconds: how long the call has run by its own clock (the media time it reported), so what the
   * call has cost so far is known while it is live (see BalanceGuard).
   */
  async append(
    callId: string,
    role: TranscriptEntry['role'],
    content: string,
    callSeconds?: number,
    details: TranscriptLineDetails = {},
  ): Promise<TranscriptEntry> {
    const entry: TranscriptEntry = { role, content, timestamp: (details.at ?? new Date()).toISOString() };
    if (role === 'bot' && details.latency) entry.latency = details.latency;
    if (role === 'bot' && details.providers) entry.providers = details.providers;
    if (role === 'bot' && details.usage) entry.usage = details.usage;
    if (role === 'bot' && details.interrupted) entry.interrupted = true;
    // A stream's lines come in order, so one mark per stream (the next seq not recorded) tells a repeat.
    await this.dataSource.query(
      `UPDATE ${tableOf(this.dataSource, 'call_sessions')}
          SET transcript = transcript || $2::jsonb, live_seconds = COALESCE($3, live_seconds),
              voice_line_marks = CASE WHEN $4::text IS NULL THEN voice_line_marks
                                      ELSE voice_line_marks || jsonb_build_object($4::text, $5::int + 1) END
        WHERE call_id = $1
          AND ($4::text IS NULL OR COALESCE((voice_line_marks ->> $4::text)::int, 0) <= $5::int)`,
      [
        callId,
        JSON.stringify([entry]),
        callSeconds ?? null,
        details.once?.streamId ?? null,
        details.once?.seq ?? null,
      ],
    );
    return entry;
  }

  /** When the session started (the call was answered); the media clock's times count from it. */
  async sessionStart(callId: string): Promise<Date | null> {
    const [row] = (await this.dataSource.query(
      `SELECT started_at FROM ${tableOf(this.dataSource, 'call_sessions')} WHERE call_id = $1`,
      [callId],
    )) as { started_at: Date | null }[];
    return row?.started_at ?? null;
  }
}
