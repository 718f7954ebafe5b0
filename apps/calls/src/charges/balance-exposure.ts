import { EntityManager } from 'typeorm';
import { PartnerContext } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { newerBalance } from '../partners/partner-balances';

/**
 * What a partner's calls have cost that its balance does not show yet, in paise, at `price` paise a minute
 * billed per second like the post-call charge: the calls in progress, by their own clock (the seconds the
 * call reported, else the time since answer), and the answered calls that ended after the balance was
 * last reported (their charge is on its way to the gateway).
 */
const liveCost = (price: string) => `ceil(GREATEST(COALESCE(s.live_seconds, 0)::float8,
                        EXTRACT(EPOCH FROM now() - c.started_at)::float8, 0) * ${price} / 60.0)`;
const unbilledCost = (price: string) => `ceil(p.bill_duration_seconds * ${price} / 60.0)`;

export interface OverdrawnCall {
  id: string;
  partner_id: string;
}

/**
 * The in-progress calls of partners whose balance no longer covers them, except those already being
 * ended (a hang-up asked for less than `$2` seconds ago; an older one is asked again). Each partner's calls
 * cost its own price: its rate card as last told (partner_standing), else `$1`.
 */
export async function overdrawnCalls(
  em: EntityManager,
  pricePerMinutePaise: number,
  retryAfterSecs: number,
): Promise<OverdrawnCall[]> {
  return (await em.query(
    `WITH price AS (
       SELECT DISTINCT c.partner_id, COALESCE(ps.price_per_minute_paise, $1) AS paise
         FROM ${tableOf(em, 'calls')} c LEFT JOIN ${tableOf(em, 'partner_standing')} ps ON ps.partner_id = c.partner_id
        WHERE c.status = 'in_progress'
     ), live AS (
       SELECT c.id, c.partner_id, c.end_requested_at, ${liveCost('pr.paise')} AS cost
         FROM ${tableOf(em, 'calls')} c JOIN ${tableOf(em, 'call_sessions')} s ON s.call_id = c.id
         JOIN price pr ON pr.partner_id = c.partner_id
        WHERE c.status = 'in_progress'
     ), exposure AS (
       SELECT l.partner_id, sum(l.cost) AS live_cost FROM live l GROUP BY l.partner_id
     ), overdrawn AS (
       SELECT e.partner_id FROM exposure e JOIN ${tableOf(em, 'partner_balances')} b ON b.partner_id = e.partner_id
         JOIN price pr ON pr.partner_id = e.partner_id
        WHERE e.live_cost + (SELECT COALESCE(sum(${unbilledCost('pr.paise')}), 0) FROM ${tableOf(em, 'calls')} p
                              WHERE p.partner_id = b.partner_id AND p.bill_duration_seconds > 0
                                AND p.ended_at > b.as_of) >= b.balance_paise
     )
     SELECT l.id, l.partner_id FROM live l JOIN overdrawn o ON o.partner_id = l.partner_id
      WHERE l.end_requested_at IS NULL OR l.end_requested_at < now() - make_interval(secs => $2)`,
    [pricePerMinutePaise, retryAfterSecs],
  )) as OverdrawnCall[];
}

export interface StartFunds {
  /** The partner's balance: the newer of the command's snapshot and the projection (newerBalance). */
  balancePaise: number;
  /** What its live and not-yet-charged calls have cost that the projection's balance does not show. */
  committedPaise: number;
}

/**
 * What a partner has to start a call with, read in one statement so that the balance and the cost are of the
 * same projection row. Read apart, a charge's event applied in between gave the balance from before the charge
 * and the cost from after it (the call ended before the new as_of), which counted the call that had just
 * ended in neither and let a partner with nothing left start another call.
 */
export async function startFunds(
  em: EntityManager,
  partner: PartnerContext,
  pricePerMinutePaise: number,
): Promise<StartFunds> {
  const [row] = (await em.query(
    `WITH projection AS (
       SELECT balance_paise, version, as_of FROM ${tableOf(em, 'partner_balances')} WHERE partner_id = $2
     )
     SELECT
       (SELECT balance_paise FROM projection) AS balance_paise,
       (SELECT version FROM projection) AS version,
       (SELECT COALESCE(sum(${liveCost('$1')}), 0)
          FROM ${tableOf(em, 'calls')} c JOIN ${tableOf(em, 'call_sessions')} s ON s.call_id = c.id
         WHERE c.partner_id = $2 AND c.status = 'in_progress') +
       (SELECT COALESCE(sum(${unbilledCost('$1')}), 0) FROM ${tableOf(em, 'calls')} p
         WHERE p.partner_id = $2 AND p.bill_duration_seconds > 0
           AND p.ended_at > COALESCE((SELECT as_of FROM projection), now()))
       AS committed`,
    [pricePerMinutePaise, partner.id],
  )) as { balance_paise: string | null; version: number | null; committed: string }[];
  const projection =
    row.balance_paise === null
      ? undefined
      : { balancePaise: Number(row.balance_paise), version: row.version ?? 0 };
  return { balancePaise: newerBalance(projection, partner), committedPaise: Number(row.committed) };
}
