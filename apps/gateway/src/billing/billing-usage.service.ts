import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  BillingUsageDto,
  BillingUsageQueryDto,
  USAGE_DEFAULT_GROUPING,
  USAGE_MAX_RANGE_DAYS,
  UsageGrouping,
} from '@vap/api';
import { tableOf } from '@vap/persistence';
import { billingRange } from './billing-range';
import { usageReport, UsageRow } from './usage-report';

/** The group of a charge, as SQL over the ledger's columns (a fixed list: group_by never reaches the SQL). */
const GROUP_KEY: Record<UsageGrouping, string> = {
  day: `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  agent: 'agent_id::text',
  campaign: 'campaign_id',
  project: 'project_id::text',
};

/** GET /billing/usage: the charge transactions of a range, summed per group; nothing but the ledger. */
@Injectable()
export class BillingUsageService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async usage(partnerId: string, query: BillingUsageQueryDto): Promise<BillingUsageDto> {
    const range = billingRange(query, USAGE_MAX_RANGE_DAYS);
    const from = range.from!;
    const to = range.to!;
    const groupBy = query.group_by ?? USAGE_DEFAULT_GROUPING;
    const key = GROUP_KEY[groupBy];
    const rows = (await this.dataSource.query(
      `SELECT ${key} AS key, count(*) AS calls,
              COALESCE(sum(billed_seconds), 0) AS billed_seconds, -sum(amount_paise) AS paise,
              COALESCE(sum(billed_seconds) FILTER (WHERE cardinality(platform_speech_providers) > 0), 0)
                AS platform_speech_seconds,
              COALESCE(sum(m.input_tokens), 0) AS model_input_tokens,
              COALESCE(sum(m.output_tokens), 0) AS model_output_tokens,
              COALESCE(sum(m.platform_input_tokens), 0) AS platform_model_input_tokens,
              COALESCE(sum(m.platform_output_tokens), 0) AS platform_model_output_tokens
         FROM ${tableOf(this.dataSource, 'ledger_entries')} e
         LEFT JOIN LATERAL (
           SELECT sum((u ->> 'input_tokens')::bigint) AS input_tokens,
                  sum((u ->> 'output_tokens')::bigint) AS output_tokens,
                  sum((u ->> 'input_tokens')::bigint) FILTER (WHERE u ->> 'paid_by' = 'platform')
                    AS platform_input_tokens,
                  sum((u ->> 'output_tokens')::bigint) FILTER (WHERE u ->> 'paid_by' = 'platform')
                    AS platform_output_tokens
             FROM jsonb_array_elements(COALESCE(e.model_usage, '[]'::jsonb)) AS u
         ) m ON true
        WHERE partner_id = $1 AND type = 'charge' AND created_at >= $2 AND created_at < $3
        GROUP BY 1`,
      [partnerId, from.toISOString(), to.toISOString()],
    )) as {
      key: string | null;
      calls: string;
      billed_seconds: string;
      paise: string;
      platform_speech_seconds: string;
      model_input_tokens: string;
      model_output_tokens: string;
      platform_model_input_tokens: string;
      platform_model_output_tokens: string;
    }[];
    const report = usageReport(
      rows.map((r): UsageRow => ({
        key: r.key,
        calls: Number(r.calls),
        billedSeconds: Number(r.billed_seconds),
        paise: Number(r.paise),
        platformSpeechSeconds: Number(r.platform_speech_seconds),
        modelInputTokens: Number(r.model_input_tokens),
        modelOutputTokens: Number(r.model_output_tokens),
        platformModelInputTokens: Number(r.platform_model_input_tokens),
        platformModelOutputTokens: Number(r.platform_model_output_tokens),
      })),
    );
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      group_by: groupBy,
      currency: 'INR',
      ...report,
    };
  }
}
