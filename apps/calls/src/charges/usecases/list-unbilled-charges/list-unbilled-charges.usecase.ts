import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  AppError,
  CallBillingRate,
  isUuid,
  ModelPaidByEntry,
  TranscriptEntry,
  UnbilledChargesPage,
  UnbilledChargesRequest,
} from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { callModelUsage } from '../../../calls/model-usage';
import { UNBILLED_PAGE_MAX } from '../../unbilled-page';

const DEFAULT_LIMIT = 100;

/**
 * How long a charge waits for the voice service's end-of-stream report while the call's media stream is still
 * live: the report names the platform-paid providers the charge carries to the ledger, and usually lands within
 * seconds (post-call processing waits for it too). A report that never comes holds billing no longer than this.
 */
export const VOICE_REPORT_WAIT_SECS = 60;

interface UnbilledRow {
  call_id: string;
  session_id: string;
  bill_seconds: number;
  amount_paise: number;
  agent_id: string;
  campaign_id: string | null;
  project_id: string | null;
  kind: string;
  billing_rate: CallBillingRate;
  platform_speech_providers: string[] | null;
  model_paid_by: ModelPaidByEntry[] | null;
  /** The session's lines a model may have written, with only what the model use is summed from. */
  model_lines: TranscriptEntry[] | null;
}
/** calls.billing.unbilled: a page of the partner's charges the gateway has not acknowledged. */
@Injectable()
export class ListUnbilledCharges {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(partnerId: string, req: UnbilledChargesRequest): Promise<UnbilledChargesPage> {
    const cursor = req.cursor ?? null;
    if (cursor !== null && !isUuid(cursor)) {
      throw AppError.validation([{ field: 'cursor', message: 'cursor is not one this list handed out' }]);
    }
    const limit = req.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > UNBILLED_PAGE_MAX) {
      throw AppError.validation([{ field: 'limit', message: `limit must be 1..${UNBILLED_PAGE_MAX}` }]);
    }
    const rows = (await this.dataSource.query(
      `SELECT ch.call_id, ch.session_id, ch.bill_seconds, ch.amount_paise,
              c.agent_id, c.campaign_id, c.project_id, c.kind, c.billing_rate, c.platform_speech_providers,
              c.model_paid_by,
              (SELECT jsonb_agg(jsonb_build_object('role', l -> 'role', 'providers', l -> 'providers',
                                                   'usage', l -> 'usage') ORDER BY i)
                 FROM jsonb_array_elements(s.transcript) WITH ORDINALITY AS t(l, i)
                WHERE l ->> 'role' = 'bot' AND l -> 'providers' ->> 'llm_model' IS NOT NULL) AS model_lines
         FROM ${tableOf(this.dataSource, 'call_charges')} ch
         JOIN ${tableOf(this.dataSource, 'calls')} c ON c.id = ch.call_id
         LEFT JOIN ${tableOf(this.dataSource, 'call_sessions')} s ON s.call_id = ch.call_id
        WHERE ch.partner_id = $1 AND ch.billed_at IS NULL AND ($2::uuid IS NULL OR ch.call_id > $2::uuid)
          AND NOT (s.media_stream IS NOT DISTINCT FROM 'live'
                   AND ch.created_at > now() - make_interval(secs => $4))
        ORDER BY ch.call_id
        LIMIT $3`,
      [partnerId, cursor, limit + 1, VOICE_REPORT_WAIT_SECS],
    )) as UnbilledRow[];
    const page = rows.slice(0, limit);
    return {
      charges: page.map((r) => ({
        callId: r.call_id,
        sessionId: r.session_id,
        billSeconds: Number(r.bill_seconds),
        amountPaise: Number(r.amount_paise),
        billingRate: r.billing_rate,
        agentId: r.agent_id,
        campaignId: r.campaign_id,
        projectId: r.project_id,
        browserSessionId: r.kind === 'browser' ? r.call_id : null,
        platformPaidSpeech: r.platform_speech_providers ?? [],
        modelUsage: callModelUsage(r.model_lines, r.model_paid_by),
      })),
      nextCursor: rows.length > limit ? page[page.length - 1].call_id : null,
    };
  }
}
