import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  CALL_VARIABLES_MAX_BYTES,
  TOOL_CALLS_PER_CALL_MAX,
  ToolCallEntry,
  VoiceToolCallRequest,
} from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { Call } from '../../../calls/entities/call.entity';
import { CallSession } from '../../../calls/entities/call-session.entity';
import { TranscriptService } from '../../transcript.service';
import { findVoiceCall } from '../../voice-calls';
import { lineOnStream, nonNegative } from '../../voice-report-fields';
import { toolCallEntry } from './tool-call-entry';

/** calls.voice.tool_call: one tool the agent ran on the call, kept on its session. */
@Injectable()
export class RecordToolCall {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transcript: TranscriptService,
  ) {}

  /**
   * Appends one tool invocation to the session (at most TOOL_CALLS_PER_CALL_MAX; a repeat of one already
   * recorded on its stream changes nothing) and merges the variables it set into the call's, unless that would
   * take them past CALL_VARIABLES_MAX_BYTES. An invocation reported after the call ended is still kept: its
   * answer may come with the hang-up.
   */
  async execute(request: VoiceToolCallRequest, partnerId: string | null): Promise<ToolCallEntry> {
    const once = lineOnStream(request);
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    const atMs = nonNegative(request.atMs, 'atMs');
    const start =
      (await this.transcript.sessionStart(call.id)) ?? call.startedAt ?? new Date(Date.now() - atMs);
    const entry = toolCallEntry(request, start);
    await this.dataSource.transaction(async (em) => {
      // The call row first (as every writer of calls and sessions), then the session's.
      const [row] = (await em.query(`SELECT variables FROM ${tableOf(em, Call)} WHERE id = $1 FOR UPDATE`, [
        call.id,
      ])) as { variables: Record<string, unknown> | null }[];
      const recorded = (await em.query(
        `UPDATE ${tableOf(em, CallSession)}
            SET tool_calls = tool_calls || $2::jsonb,
                tool_call_marks = CASE WHEN $3::text IS NULL THEN tool_call_marks
                                       ELSE tool_call_marks || jsonb_build_object($3::text, $4::int + 1) END
          WHERE call_id = $1
            AND jsonb_array_length(tool_calls) < $5
            AND ($3::text IS NULL OR COALESCE((tool_call_marks ->> $3::text)::int, 0) <= $4::int)
          RETURNING call_id`,
        [
          call.id,
          JSON.stringify([entry]),
          once?.streamId ?? null,
          once?.seq ?? null,
          TOOL_CALLS_PER_CALL_MAX,
        ],
      )) as [unknown[], number];
      if (recorded[1] === 0 || Object.keys(entry.variables).length === 0) return;
      const merged = { ...(row?.variables ?? {}), ...entry.variables };
      if (Buffer.byteLength(JSON.stringify(merged)) > CALL_VARIABLES_MAX_BYTES) return;
      await em.query(`UPDATE ${tableOf(em, Call)} SET variables = $2::jsonb WHERE id = $1`, [
        call.id,
        JSON.stringify(merged),
      ]);
    });
    return entry;
  }
}
